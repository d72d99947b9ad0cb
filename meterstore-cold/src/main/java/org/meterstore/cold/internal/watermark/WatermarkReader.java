package org.meterstore.cold.internal.watermark;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.commit.SummaryKeys;

/**
 * Reads W from snapshot summaries: the one parent walk of the code base (DESIGN § 5), behind {@code
 * ColdTable.watermark()}, {@code watermarkAt(long)}, every snapshot view, the commit protocol and
 * expiry's protection of the chain. A snapshot without {@code meterstore.watermark} (a foreign
 * commit) inherits W from its nearest ancestor that has one; a history that never had one means the
 * epoch. A parent id that no longer resolves means an ancestor was expired by a tool that did not
 * re-stamp first: W is then unknown, and saying the epoch would route every archived reading back
 * to the hot tier, so it is an invariant violation instead.
 */
public final class WatermarkReader {
  private WatermarkReader() {}

  /** W of the table's current snapshot (the epoch for a table without snapshots). */
  public static Instant read(Table table, String tableName) {
    return resolve(table, table.currentSnapshot(), tableName);
  }

  /** W as seen from {@code snapshot} (the epoch when it is null). */
  public static Instant resolve(Table table, Snapshot snapshot, String tableName) {
    return walk(table, snapshot, tableName).watermark();
  }

  /**
   * The walk from a snapshot back through its parents to the nearest one carrying W.
   *
   * @param visited the snapshots walked, starting with the given one and ending with the carrier
   *     (or the root when none carries W); empty when there was no snapshot
   * @param watermark the W found, or the epoch when no ancestor carries one
   */
  public record Walk(List<Long> visited, Instant watermark) {
    /** Copies the list. */
    public Walk {
      visited = List.copyOf(visited);
    }
  }

  /**
   * Walks from {@code snapshot} (null: no snapshot, the epoch) to the nearest ancestor carrying W.
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when a parent no longer exists before W
   *     was found, or a snapshot carries an unreadable W
   */
  public static Walk walk(Table table, Snapshot snapshot, String tableName) {
    List<Long> visited = new ArrayList<>();
    Snapshot s = snapshot;
    while (s != null) {
      visited.add(s.snapshotId());
      Instant own = own(s, tableName);
      if (own != null) {
        return new Walk(visited, own);
      }
      Long parentId = s.parentId();
      if (parentId == null) {
        return new Walk(visited, Instant.EPOCH);
      }
      Snapshot parent = table.snapshot(parentId);
      if (parent == null) {
        throw new MeterStoreException(
            ErrorKind.INVARIANT_VIOLATED,
            "Cannot read the watermark of cold table "
                + tableName
                + ": snapshot "
                + s.snapshotId()
                + " carries none and its parent "
                + parentId
                + " no longer exists (expired without re-stamping); an operator must restore W");
      }
      s = parent;
    }
    return new Walk(visited, Instant.EPOCH);
  }

  /** The W {@code snapshot} carries itself, or null. */
  public static Instant own(Snapshot snapshot, String tableName) {
    String text = snapshot.summary() == null ? null : snapshot.summary().get(SummaryKeys.WATERMARK);
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new MeterStoreException(
          ErrorKind.INVARIANT_VIOLATED,
          "Cannot read the watermark of cold table "
              + tableName
              + ": snapshot "
              + snapshot.snapshotId()
              + " carries an unreadable "
              + SummaryKeys.WATERMARK
              + " '"
              + text
              + "'",
          e);
    }
  }
}
