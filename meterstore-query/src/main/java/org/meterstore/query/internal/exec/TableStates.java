package org.meterstore.query.internal.exec;

import java.time.Instant;
import java.util.List;
import org.apache.iceberg.Table;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.query.ReadMode;

/**
 * Resolves a {@link TableState}: cold first (snapshot, then W from that snapshot), hot second
 * (partitions enumerated after W was read, so an archival run in between leaves its partition
 * detached but present), then the pin. In the current modes an unreachable cold tier is recorded
 * rather than thrown: a query whose {@code from} range lies provably in the hot tier still runs,
 * every other one fails when it is routed.
 */
final class TableStates {
  private TableStates() {}

  static TableState resolve(CatalogRuntime rt, TableDefinition def, ReadMode mode) {
    boolean readsCold = mode.kind() != ReadMode.Kind.OPERATIONAL;
    boolean readsHot = !mode.kind().coldOnly();
    Table iceberg = null;
    Long snapshotId = null;
    Instant watermark = null;
    MeterStoreException failure = null;
    if (readsCold) {
      try {
        iceberg = load(rt, def);
        snapshotId = ColdSnapshots.pick(iceberg, mode, def.name());
        watermark = ColdSnapshots.watermark(iceberg, snapshotId, def.name());
      } catch (MeterStoreException e) {
        if (!readsHot || !e.isRetryable()) {
          throw e;
        }
        failure = e;
        iceberg = null;
      }
    }
    List<PartitionInfo> partitions = List.of();
    Instant boundary = readsHot ? Instant.MIN : Instant.MAX;
    if (readsHot) {
      List<PartitionInfo> all = rt.hot().partitions().list(def);
      if (watermark != null) {
        boundary = watermark;
        Instant w = watermark;
        partitions = all.stream().filter(p -> p.upperBound().isAfter(w)).toList();
      } else {
        partitions = all.stream().filter(p -> p.state() != PartitionState.DETACHED).toList();
        if (readsCold) {
          boundary = partitions.isEmpty() ? Instant.MAX : partitions.get(0).lowerBound();
        }
      }
    }
    ReaderPin pin = pin(rt, def, partitions, boundary);
    return new TableState(
        def,
        mode,
        readsCold,
        readsHot,
        iceberg,
        snapshotId,
        watermark,
        boundary,
        failure,
        partitions,
        pin);
  }

  private static Table load(CatalogRuntime rt, TableDefinition def) {
    try {
      return rt.coldTable(def).icebergTable();
    } catch (MeterStoreException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot load cold table " + def.name() + ": " + e, e);
    }
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
