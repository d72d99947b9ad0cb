package org.meterstore.query.internal.cold;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.VersionOrder;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.testing.workload.Workload;

/**
 * Cold tables for the executor's tests, written through the real cold tier (archival commits and
 * late corrections, so keys live in several files), and the reference answer: every record read
 * through Iceberg's generic reader, resolved with {@link VersionOrder}.
 */
final class ColdData {
  static final Instant FROM = Instant.parse("2026-03-26T00:00:00Z");
  static final Instant TO = Instant.parse("2026-04-03T00:00:00Z");
  static final Instant NOW = Instant.parse("2026-04-10T00:00:00Z");
  static final Instant LATER = Instant.parse("2026-04-20T00:00:00Z");

  private ColdData() {}

  /**
   * Six meters (two of them gas, hourly on gas days) from 27 March 2026 for six days (the DST day
   * 29 March, into April), 15 % corrected: half of the corrections archived with the originals
   * (files holding two versions), half appended later as late corrections (a key in two files).
   */
  static void fill(ColdTable table) {
    fill(table, new Workload(6, LocalDate.of(2026, 3, 27), 6, 3, 0.15, 0, 7), FROM, TO);
  }

  /** {@code w}'s readings archived in {@code [from, to)}, half the corrections appended later. */
  static void fill(ColdTable table, Workload w, Instant from, Instant to) {
    TableDefinition def = table.definition();
    List<Object[]> archived = new ArrayList<>();
    List<StoredReading> late = new ArrayList<>();
    int corrections = 0;
    for (Workload.Delivery d : w.deliveries()) {
      for (Reading r : d.readings()) {
        if (!d.correction()) {
          archived.add(StoredRow.of(def, StoredReading.accept(r, NOW)));
        } else if (corrections++ % 2 == 0) {
          archived.add(StoredRow.of(def, StoredReading.accept(r, NOW.plusSeconds(60))));
        } else {
          late.add(StoredReading.accept(r, LATER));
        }
      }
    }
    table.archive(new ArchiveRequest(from, to, NOW, 1), archived);
    if (!late.isEmpty()) {
      table.appendCorrections(late, LATER);
    }
  }

  static SnapshotView view(ColdTable table) {
    return table.view(SnapshotSelector.current());
  }

  /** Every stored row as full-width internal values (millis, days, BigDecimal, String). */
  static List<Object[]> records(SnapshotView view, TableDefinition def) {
    return records(view, def, Expressions.alwaysTrue());
  }

  static List<Object[]> records(SnapshotView view, TableDefinition def, Expression filter) {
    List<ColumnSpec> columns = def.columns();
    List<String> names = columns.stream().map(ColumnSpec::name).toList();
    List<Object[]> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = view.readRecords(filter, names)) {
      for (Record r : records) {
        Object[] row = new Object[columns.size()];
        for (int c = 0; c < row.length; c++) {
          row[c] = internal(r.getField(names.get(c)), columns.get(c).type());
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static Object internal(Object v, ColumnType type) {
    if (v == null) {
      return null;
    }
    return switch (type) {
      case TIMESTAMPTZ -> ((OffsetDateTime) v).toInstant().toEpochMilli();
      case DATE -> (int) ((LocalDate) v).toEpochDay();
      default -> v instanceof CharSequence ? v.toString() : v;
    };
  }

  /** The rows {@code before} keeps, resolved, then those {@code after} keeps. */
  static List<Object[]> resolved(
      List<Object[]> rows,
      TableDefinition def,
      Predicate<Object[]> before,
      Predicate<Object[]> after) {
    int[] group = groupColumns(def);
    int version = ScanColumns.index(def, "version");
    int recordedAt = ScanColumns.index(def, "recorded_at");
    Map<List<Object>, Object[]> winners = new HashMap<>();
    for (Object[] row : rows) {
      if (!before.test(row)) {
        continue;
      }
      List<Object> key = new ArrayList<>();
      for (int g : group) {
        key.add(row[g]);
      }
      winners.merge(
          key,
          row,
          (held, cand) ->
              VersionOrder.outranks(
                      (BigDecimal) cand[version],
                      (Long) cand[recordedAt],
                      (BigDecimal) held[version],
                      (Long) held[recordedAt])
                  ? cand
                  : held);
    }
    return winners.values().stream().filter(after).toList();
  }

  static int[] groupColumns(TableDefinition def) {
    List<Integer> g = new ArrayList<>();
    def.mergeKey().forEach(c -> g.add(ScanColumns.index(def, c)));
    g.add(ScanColumns.index(def, "version_scope"));
    return g.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Rows as sorted text lines, decimals in plain form, for order-free comparison. */
  static List<String> canonical(List<Object[]> rows, int[] columns) {
    List<String> out = new ArrayList<>();
    for (Object[] r : rows) {
      Object[] picked = new Object[columns.length];
      for (int i = 0; i < columns.length; i++) {
        Object v = r[columns[i]];
        picked[i] = v instanceof BigDecimal b ? b.toPlainString() : v;
      }
      out.add(Arrays.toString(picked));
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  static List<String> canonical(List<Object[]> rows) {
    List<String> out = new ArrayList<>();
    for (Object[] r : rows) {
      Object[] copy = r.clone();
      for (int i = 0; i < copy.length; i++) {
        if (copy[i] instanceof BigDecimal b) {
          copy[i] = b.toPlainString();
        }
      }
      out.add(Arrays.toString(copy));
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** Every storage index of {@code def}. */
  static int[] all(TableDefinition def) {
    int[] all = new int[def.columns().size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    return all;
  }

  static List<Object[]> drain(ColdRows rows) {
    List<Object[]> out = new ArrayList<>();
    try (rows) {
      rows.forEachRemaining(out::add);
    }
    return out;
  }
}
