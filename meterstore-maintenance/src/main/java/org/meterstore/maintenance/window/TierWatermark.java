package org.meterstore.maintenance.window;

import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * W of one table as both tiers agree on it: the cold tier's W, refused ({@code INVARIANT_VIOLATED},
 * naming the snapshot to roll forward to) when it is below the committed watermark the hot tier
 * recorded, because the readings in between would then be in neither tier. Every decision outside
 * the query engine (archival, routed corrections, a hot writer) reads W here, and the few reads
 * that must not be guarded name their reason ({@link Unguarded}), so no call site can forget the
 * guard (an architecture rule forbids reading {@code ColdTable.watermark()} elsewhere outside the
 * cold tier and the query engine, which checks the same guard against the committed watermark it
 * reads with its state).
 */
public final class TierWatermark {
  private static final Logger LOG = LoggerFactory.getLogger(TierWatermark.class);

  private final HotStore hot;
  private final ColdTable cold;
  private final TableDefinition table;

  /** W of {@code table}, read from {@code cold} and checked against {@code hot}. */
  public TierWatermark(HotStore hot, ColdTable cold, TableDefinition table) {
    this.hot = hot;
    this.cold = cold;
    this.table = table;
  }

  /**
   * The current W, never below the committed watermark.
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when the cold tier's W went back
   */
  public Instant read() {
    return cold.watermarkNotBelow(hot.partitions().committedWatermark(table));
  }

  /**
   * The current cold snapshot and its W, read together, W never below the committed watermark.
   *
   * @param snapshotId the current snapshot, or null for a table without snapshots
   * @param watermark W at that snapshot
   */
  public record State(Long snapshotId, Instant watermark) {}

  /**
   * The current state (S, W) with the guard, from one snapshot view.
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when the cold tier's W went back
   */
  public State currentState() {
    SnapshotView view = cold.view(SnapshotSelector.current());
    Instant w = view.watermarkNotBelow(hot.partitions().committedWatermark(table));
    OptionalLong id = view.snapshotId();
    return new State(id.isPresent() ? id.getAsLong() : null, w);
  }

  /** Why a caller reads the cold tier's W without the guard: the only three reasons there are. */
  public enum Unguarded {
    /**
     * Routing one write batch: a write routed by a W that went back is refused by the hot tier's
     * floor (at least the committed watermark), and the writer then reads {@link #read()}.
     */
    ROUTING,
    /** Showing an operator what the cold tier says during an incident (it may be the incident). */
    DISPLAY,
    /**
     * The history import, the documented repair of a rollback whose newer snapshots are gone: it
     * commits the missing readings from the cold tier's W up, which moves W back to where it was.
     */
    REPAIR
  }

  /** The cold tier's W as it is, for one of the {@link Unguarded} reasons only. */
  public Instant unguarded(Unguarded reason) {
    Objects.requireNonNull(reason, "reason");
    return cold.watermark();
  }

  /**
   * Records {@code w}, the W a cold commit just landed with, as the committed watermark and the hot
   * floor. A floor that cannot be recorded in time ({@code LOCK_TIMEOUT}) is left for the next run,
   * which records the current W first: until then nothing is reclaimed below it.
   *
   * @return the floor now in force, or null when it could not be recorded yet
   */
  public Instant recordCommitted(Instant w) {
    try {
      return hot.partitions().recordCommittedWatermark(table, w);
    } catch (MeterStoreException e) {
      if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
        throw e;
      }
      LOG.warn("Cannot record the hot floor {} of {} yet: {}", w, table.name(), e.getMessage());
      return null;
    }
  }
}
