package org.meterstore.query.internal.system;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotTag;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.StatePin;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.internal.system.PublishedSql.Dialect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computes the {@code system} relations at {@code now}. {@code healthy} covers the ways a table
 * stops working: rows below W still in PostgreSQL (wrong answers now), a W below the committed
 * watermark the hot tier recorded (a rollback behind MeterStore: readings in neither tier, so
 * queries refuse) and no attached partition ending after {@code now} (no answers shortly). A table
 * with no partitions at all is exempt; one whose partitions or watermark cannot be read reports
 * {@code -1} (or null) and is not healthy.
 */
public final class SystemTablesComputer {
  private static final Logger LOG = LoggerFactory.getLogger(SystemTablesComputer.class);

  private SystemTablesComputer() {}

  public static SystemSnapshot compute(CatalogRuntime rt, String schemaName, Instant now) {
    List<Object[]> tables = new ArrayList<>();
    List<Object[]> config = new ArrayList<>();
    List<Object[]> resolution = new ArrayList<>();
    List<Object[]> snapshots = new ArrayList<>();
    List<Object[]> seam = new ArrayList<>();
    List<Object[]> tags = new ArrayList<>();
    List<Object[]> pins = new ArrayList<>();
    for (TableDefinition def : rt.tables().values()) {
      SnapshotView current = current(rt, def);
      String namespace = rt.cold().identifier(def.name()).namespace().level(0);
      List<Object[]> tablePins = pins(rt, def, namespace, now);
      pins.addAll(tablePins);
      List<PartitionInfo> partitions = partitions(rt, def);
      tables.add(
          status(
              rt,
              def,
              now,
              current == null ? null : current.watermark(),
              partitions,
              tablePins.size()));
      config.addAll(config(rt, def));
      resolution.add(
          new Object[] {
            def.name(),
            "resolution_sql",
            PublishedSql.resolution(def, Dialect.STANDARD, coldTable(namespace, def))
          });
      resolution.add(
          new Object[] {
            def.name(),
            "resolution_sql_spark",
            PublishedSql.resolution(def, Dialect.SPARK, coldTable(namespace, def))
          });
      resolution.add(new Object[] {def.name(), "balancing_day_column", "balancing_day"});
      seam.add(seam(rt, def, namespace, current, partitions));
      if (current != null) {
        // an unreadable cold tier was logged once above; its history would fail the same way
        snapshots.addAll(snapshots(rt, def));
        tags.addAll(tags(rt, def));
      }
    }
    List<Object[]> erasures = SubjectTrailRows.compute(rt, now);
    return new SystemSnapshot(
        now, tables, config, resolution, snapshots, seam, tags, erasures, pins);
  }

  /**
   * The table's current snapshot, read once per refresh so that {@code tables} and {@code seam}
   * show the same W; null (logged) when the cold tier cannot be read.
   */
  private static SnapshotView current(CatalogRuntime rt, TableDefinition def) {
    try {
      return rt.coldTable(def).view(SnapshotSelector.current());
    } catch (RuntimeException e) {
      LOG.warn("Cannot read the current snapshot of {}: {}", def.name(), e.toString());
      return null;
    }
  }

  /** The table's hot partitions, listed once per refresh; null when they cannot be listed. */
  private static List<PartitionInfo> partitions(CatalogRuntime rt, TableDefinition def) {
    try {
      return rt.hot().partitions().list(def);
    } catch (RuntimeException e) {
      LOG.warn("Cannot enumerate the partitions of {}: {}", def.name(), e.toString());
      return null;
    }
  }

  private static Object[] status(
      CatalogRuntime rt,
      TableDefinition def,
      Instant now,
      Instant w,
      List<PartitionInfo> all,
      int statePins) {
    int hotPartitions = -1;
    int ahead = -1;
    boolean none = false;
    if (all != null) {
      none = all.isEmpty();
      List<PartitionInfo> attached = all.stream().filter(PartitionInfo::isAttached).toList();
      hotPartitions = attached.size();
      ahead = (int) attached.stream().filter(p -> p.upperBound().isAfter(now)).count();
    }
    long violations = -1;
    if (w != null && hotPartitions >= 0) {
      try {
        violations = rt.hot().partitions().countRowsBelow(def, w);
      } catch (RuntimeException e) {
        LOG.warn("Cannot count rows below W of {}: {}", def.name(), e.toString());
      }
    }
    Instant committed = committedWatermark(rt, def);
    boolean wentBack = w != null && committed != null && w.isBefore(committed);
    boolean healthy =
        w != null && !wentBack && violations == 0 && hotPartitions >= 0 && (none || ahead > 0);
    Long lag = w == null ? null : Duration.between(w, now).getSeconds();
    return new Object[] {
      def.name(),
      w == null ? null : w.toEpochMilli(),
      lag,
      hotPartitions,
      ahead,
      violations,
      healthy,
      committed == null ? null : committed.toEpochMilli(),
      statePins
    };
  }

  /**
   * The last W MeterStore committed, as the hot tier recorded it; null when it cannot be read. A
   * cold W below it means the table was rolled back behind MeterStore: the table is not healthy.
   */
  private static Instant committedWatermark(CatalogRuntime rt, TableDefinition def) {
    try {
      return rt.hot().partitions().committedWatermark(def);
    } catch (RuntimeException e) {
      LOG.warn("Cannot read the committed watermark of {}: {}", def.name(), e.toString());
      return null;
    }
  }

  private static List<Object[]> config(CatalogRuntime rt, TableDefinition def) {
    TablePolicy p = def.policy();
    List<Object[]> rows = new ArrayList<>();
    String[][] settings = {
      {"time_model", def.timeModel().name()},
      {"merge_key", String.join(", ", def.mergeKey())},
      {"archival_step", p.archivalStep().toString()},
      {"partition_headroom", p.partitionHeadroom().toString()},
      {"settlement_lag", p.settlementLag().toString()},
      {"reader_grace", p.readerGrace().toString()},
      {"snapshot_retention", p.snapshotRetention().toString()},
      {"min_snapshots_to_keep", Integer.toString(p.minSnapshotsToKeep())},
      {"hot_table", rt.hot().schema() + "." + def.name()},
      {"cold_table", rt.cold().identifier(def.name()).toString()},
      {"query_pin_ttl", rt.pinTtl().toString()}
    };
    for (String[] s : settings) {
      rows.add(new Object[] {def.name(), s[0], s[1]});
    }
    return rows;
  }

  private static List<String> coldTable(String namespace, TableDefinition def) {
    return List.of(PublishedSql.ICEBERG_CATALOG, namespace, def.name());
  }

  /**
   * The table's seam: the current snapshot S, its W, and the federated query at S for each engine.
   * S and W come from one read of the snapshot, so they belong together; a table whose cold tier
   * cannot be read has nulls and no SQL. {@code servable} is false, with the reason, when the
   * federated query would miss readings: a partition from W up is detached or pending detach, so
   * the hot parent does not show its rows (or the partitions cannot be listed).
   */
  private static Object[] seam(
      CatalogRuntime rt,
      TableDefinition def,
      String namespace,
      SnapshotView view,
      List<PartitionInfo> partitions) {
    String hotTable = rt.hot().schema() + "." + def.name();
    String coldTable = rt.cold().identifier(def.name()).toString();
    if (view == null) {
      return new Object[] {
        def.name(),
        null,
        null,
        coldTable,
        hotTable,
        null,
        null,
        false,
        "the cold tier cannot be read"
      };
    }
    OptionalLong snapshotId = view.snapshotId();
    Instant w = view.watermark();
    String schema = rt.hot().schema();
    String unservable = unservable(partitions, w);
    return new Object[] {
      def.name(),
      snapshotId.isPresent() ? snapshotId.getAsLong() : null,
      w.toEpochMilli(),
      coldTable,
      hotTable,
      PublishedSql.federated(def, Dialect.SPARK, namespace, schema, snapshotId, w, List.of()),
      PublishedSql.federated(def, Dialect.STANDARD, namespace, schema, snapshotId, w, List.of()),
      unservable == null,
      unservable
    };
  }

  /** Why the federated query at W would miss readings of the hot parent, or null. */
  private static String unservable(List<PartitionInfo> partitions, Instant w) {
    if (partitions == null) {
      return "the hot partitions cannot be listed";
    }
    return PartitionInfo.hiddenFromParent(partitions, w)
        .map(
            p ->
                "partition "
                    + p.name()
                    + " is "
                    + p.state()
                    + " above W: the hot parent does not show its rows until maintenance finishes"
                    + " it")
        .orElse(null);
  }

  /**
   * The table's live state pins at {@code now}, each with the federated query for its pinned state
   * (S, W) in each engine's dialect: what a job that holds the pin runs.
   */
  private static List<Object[]> pins(
      CatalogRuntime rt, TableDefinition def, String namespace, Instant now) {
    List<Object[]> rows = new ArrayList<>();
    try {
      String schema = rt.hot().schema();
      for (StatePin pin : rt.hot().pins().statePins(def.name(), now)) {
        OptionalLong s =
            pin.snapshotId() == null ? OptionalLong.empty() : OptionalLong.of(pin.snapshotId());
        rows.add(
            new Object[] {
              def.name(),
              pin.id(),
              pin.holder(),
              pin.snapshotId(),
              pin.watermark().toEpochMilli(),
              pin.createdAt().toEpochMilli(),
              pin.expiresAt().toEpochMilli(),
              PublishedSql.federated(
                  def, Dialect.SPARK, namespace, schema, s, pin.watermark(), List.of()),
              PublishedSql.federated(
                  def, Dialect.STANDARD, namespace, schema, s, pin.watermark(), List.of())
            });
      }
    } catch (RuntimeException e) {
      LOG.warn("Cannot list the state pins of {}: {}", def.name(), e.toString());
    }
    return rows;
  }

  private static List<Object[]> snapshots(CatalogRuntime rt, TableDefinition def) {
    List<Object[]> rows = new ArrayList<>();
    try {
      for (SnapshotInfo s : rt.coldTable(def).snapshots()) {
        rows.add(
            new Object[] {
              def.name(),
              s.snapshotId(),
              s.sequenceNumber(),
              s.committedAt().toEpochMilli(),
              s.watermark() == null ? null : s.watermark().toEpochMilli(),
              s.totalRows(),
              String.join(",", s.tags()),
              s.stampedAt() == null ? null : s.stampedAt().toEpochMilli()
            });
      }
    } catch (RuntimeException e) {
      LOG.warn("Cannot list the snapshots of {}: {}", def.name(), e.toString());
    }
    return rows;
  }

  private static List<Object[]> tags(CatalogRuntime rt, TableDefinition def) {
    List<Object[]> rows = new ArrayList<>();
    try {
      for (SnapshotTag t : rt.coldTable(def).tags()) {
        rows.add(
            new Object[] {
              def.name(),
              t.name(),
              t.snapshotId(),
              t.sequenceNumber(),
              t.watermark() == null ? null : t.watermark().toEpochMilli(),
              t.archivedAt() == null ? null : t.archivedAt().toEpochMilli(),
              t.committedAt().toEpochMilli(),
              t.totalRows()
            });
      }
    } catch (RuntimeException e) {
      LOG.warn("Cannot list the tags of {}: {}", def.name(), e.toString());
    }
    return rows;
  }
}
