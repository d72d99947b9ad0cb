package org.meterstore.query.internal.state;

import java.time.Instant;
import java.util.List;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.query.mode.ReadMode;

/**
 * Resolves a {@link TableState}: cold first (snapshot, then W from that snapshot), hot second
 * (partitions enumerated after W was read, so an archival run in between leaves its partition
 * detached but present), then the pin. In the current modes an unreachable cold tier is recorded
 * rather than thrown: a query whose {@code from} range lies in the hot tier still runs, every other
 * one fails when it is routed.
 */
final class TableStates {
  private TableStates() {}

  static TableState resolve(CatalogRuntime rt, TableDefinition def, ReadMode mode, boolean pin) {
    boolean readsCold = mode.kind() != ReadMode.Kind.OPERATIONAL;
    boolean readsHot = !mode.kind().coldOnly();
    Cold cold = readsCold ? cold(rt, def, mode, readsHot) : Cold.NONE;
    List<PartitionInfo> partitions = List.of();
    Instant boundary = readsHot ? Instant.MIN : Instant.MAX;
    if (readsHot) {
      List<PartitionInfo> all = rt.hot().partitions().list(def);
      if (cold.watermark() != null) {
        boundary = cold.watermark();
        partitions = all.stream().filter(p -> p.upperBound().isAfter(cold.watermark())).toList();
      } else {
        // W unreadable: the lowest attached partition's lower bound A is a proved boundary.
        // Archival detaches a window's partition before committing it, window by window in order,
        // so W <= A and everything from A up is attached and in no cold file. The hot floor is no
        // substitute: it may lag W, with the rows between already dropped or corrected in the lake.
        partitions = all.stream().filter(p -> p.state() != PartitionState.DETACHED).toList();
        if (readsCold) {
          boundary = partitions.isEmpty() ? Instant.MAX : partitions.get(0).lowerBound();
        }
      }
    }
    return new TableState(
        def,
        mode,
        readsCold,
        readsHot,
        cold.snapshot(),
        boundary,
        cold.failure(),
        partitions,
        pin ? pin(rt, def, partitions, boundary) : null);
  }

  /** The cold side of a state: the pinned snapshot with its W, or why it could not be read. */
  private record Cold(SnapshotView snapshot, MeterStoreException failure) {
    static final Cold NONE = new Cold(null, null);

    Instant watermark() {
      return snapshot == null ? null : snapshot.watermark();
    }
  }

  /**
   * Pins the snapshot the mode reads, with its W, through the cold tier. A retryable failure is
   * recorded when the mode also reads the hot tier (the query may not need the cold one); otherwise
   * it is thrown.
   */
  private static Cold cold(CatalogRuntime rt, TableDefinition def, ReadMode mode, boolean hot) {
    SnapshotView view;
    try {
      view = pin(rt, def, mode);
    } catch (MeterStoreException e) {
      if (!hot || !e.isRetryable()) {
        throw e;
      }
      return new Cold(null, e);
    }
    if (readsCurrentSnapshot(mode)) {
      requireNotBehindFloor(rt, def, view, hot);
    }
    return new Cold(view, null);
  }

  /**
   * Refuses a current snapshot whose W lies below the committed watermark the hot tier recorded (a
   * table rolled back behind MeterStore's last commit): its answer would miss the readings in
   * between. A mode that reads only the cold tier still answers while PostgreSQL is unreachable: it
   * then reports what the lake holds below its W, unchecked.
   */
  private static void requireNotBehindFloor(
      CatalogRuntime rt, TableDefinition def, SnapshotView view, boolean hot) {
    Instant committed;
    try {
      committed = rt.hot().partitions().committedWatermark(def);
    } catch (MeterStoreException e) {
      if (hot || !e.isRetryable()) {
        throw e;
      }
      return;
    }
    view.watermarkNotBelow(committed);
  }

  /** Whether the mode reads the table's current snapshot (every mode but the as-of ones). */
  private static boolean readsCurrentSnapshot(ReadMode mode) {
    return switch (mode.kind()) {
      case AS_OF_SNAPSHOT, AS_OF_TAG, AS_OF_TIME -> false;
      default -> true;
    };
  }

  private static SnapshotView pin(CatalogRuntime rt, TableDefinition def, ReadMode mode) {
    try {
      return rt.coldTable(def).view(selector(mode));
    } catch (MeterStoreException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot load cold table " + def.name() + ": " + e, e);
    }
  }

  /** The cold snapshot a read mode reads: an as-of mode's, else the current one. */
  static SnapshotSelector selector(ReadMode mode) {
    return switch (mode.kind()) {
      case AS_OF_SNAPSHOT -> SnapshotSelector.snapshotId(mode.snapshotId());
      case AS_OF_TAG -> SnapshotSelector.tag(mode.tag());
      case AS_OF_TIME -> SnapshotSelector.asOf(mode.instant());
      default -> SnapshotSelector.current();
    };
  }

  private static ReaderPin pin(
      CatalogRuntime rt, TableDefinition def, List<PartitionInfo> partitions, Instant boundary) {
    if (partitions.isEmpty()) {
      return null;
    }
    Instant lower = partitions.get(0).lowerBound();
    if (boundary.isAfter(lower) && !boundary.equals(Instant.MAX)) {
      lower = boundary;
    }
    Instant upper = partitions.get(partitions.size() - 1).upperBound();
    return rt.hot().pins().pin(def.name(), lower, upper, rt.clock().instant(), rt.pinTtl());
  }
}
