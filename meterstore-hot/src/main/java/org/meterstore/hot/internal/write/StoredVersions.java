package org.meterstore.hot.internal.write;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.SqlIdentifiers;

/**
 * Reads every stored version of the batch's merge keys in one statement: the distinct keys go as
 * {@code text[]} arrays, are unnested and joined to the parent on the primary key's leading
 * columns. The join is a {@code LATERAL} subquery so that it can only run as a nested loop: each
 * key is one primary-key index probe in the one partition that can hold it (run-time pruning on
 * {@code from}); a plain join let the planner hash-join against a scan of every partition.
 *
 * <p>A large <em>dense</em> batch of a table with a fixed resolution — {@link #RANGE_KEYS} keys or
 * more that fill at least half of the grid slots between each location and OBIS code's first and
 * last {@code from}, as meter-days do — is read by ranges instead: one index range scan per
 * location and OBIS code over that span (0.3 µs a key against 2.3 µs for a probe per key,
 * docs/benchmarks.md). Only the ranges are sent, not the keys: the rows found come back with their
 * merge-key columns and are kept here when their key is one of the batch's (a day of 9,600 readings
 * sent 9,600 keys in five text arrays, some 10 ms a batch for the driver and the server to build
 * and parse, where the ranges find nothing). The ranges can only find more rows than the keys name,
 * never fewer, and the filter keeps exactly the rows of the keys, so both forms return the same.
 * Ranges are taken only where every merge-key column is a non-null {@code text} or {@code
 * timestamptz} (the key's text here equals the batch's, see {@link #keyOf}). A sparse batch (a few
 * corrections across a month) keeps the probes: its ranges would read every stored reading in
 * between.
 */
final class StoredVersions {
  private static final List<String> STORED_COLUMNS =
      List.of("version", "version_scope", "value", "unit", "quality", "to", "recorded_at");

  /**
   * The fewest distinct keys a batch reads by ranges: below it the probes cost little and their
   * simpler statement wins (one meter-day batches of two and four writers were 20 % slower by
   * ranges, 960- and 9,600-reading batches 10–15 % faster).
   */
  static final int RANGE_KEYS = 500;

  private final TableLayout layout;
  private final String sql;
  private final String rangeSql;
  private final long slotSeconds;
  private final int maloKey;
  private final int obisKey;
  // the merge-key columns' types, when every one can be read back as the batch's key text
  private final ColumnType[] rangeKeys;

  StoredVersions(TableLayout layout, String schema) {
    this.layout = layout;
    int keyColumns = layout.mergeKey().length;
    this.slotSeconds =
        layout.table().resolution() == null
            ? 0
            : layout.table().resolution().fixedLength().map(Duration::getSeconds).orElse(0L);
    this.maloKey = keyPosition(layout, "malo_id");
    this.obisKey = keyPosition(layout, "obis_code");
    this.rangeKeys = rangeKeyTypes(layout);
    List<String> keyNames = new ArrayList<>();
    for (int position : layout.mergeKey()) {
      keyNames.add("t." + SqlIdentifiers.quote(layout.columns().get(position).name()));
    }
    this.rangeSql =
        "SELECT "
            + String.join(", ", keyNames)
            + ", "
            + String.join(
                ", ", STORED_COLUMNS.stream().map(col -> "t." + SqlIdentifiers.quote(col)).toList())
            + " FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS r(m, o, lo, hi) CROSS"
            + " JOIN LATERAL (SELECT * FROM "
            + SqlIdentifiers.qualified(schema, layout.table().name())
            + " t WHERE t.\"malo_id\" = r.m AND t.\"obis_code\" = r.o AND t.\"from\" >="
            + " r.lo::timestamptz AND t.\"from\" <= r.hi::timestamptz) t";
    this.sql =
        "SELECT b.ord, "
            + String.join(
                ", ", STORED_COLUMNS.stream().map(col -> "t." + SqlIdentifiers.quote(col)).toList())
            + " FROM "
            + TableLayout.unnest(keyColumns, "b", true)
            + " CROSS JOIN LATERAL (SELECT * FROM "
            + SqlIdentifiers.qualified(schema, layout.table().name())
            + " t WHERE "
            + layout.mergeKeyJoin("t", "b", true)
            + ") t";
  }

  /**
   * How the stored versions of {@code rows} are read: the statement, and for a dense batch the
   * ranges it binds before the keys (null: a probe per key).
   */
  Lookup lookup(List<BatchRow> rows) {
    if (slotSeconds == 0 || maloKey < 0 || obisKey < 0 || rangeKeys == null) {
      return new Lookup(sql, null, null);
    }
    Set<String> keys = new HashSet<>();
    List<String[]> ranges = ranges(rows, keys);
    return ranges == null ? new Lookup(sql, null, null) : new Lookup(rangeSql, ranges, keys);
  }

  /**
   * A lookup's statement and, when it reads by ranges, each range's MaLo, OBIS, first, last and the
   * batch's merge keys the rows found are kept for.
   */
  record Lookup(String sql, List<String[]> ranges, Set<String> keys) {}

  /** The merge key's column types, or null when one is not a non-null text or timestamptz. */
  private static ColumnType[] rangeKeyTypes(TableLayout layout) {
    int[] key = layout.mergeKey();
    ColumnType[] types = new ColumnType[key.length];
    for (int k = 0; k < key.length; k++) {
      ColumnSpec column = layout.columns().get(key[k]);
      if (column.nullable()
          || (column.type() != ColumnType.TEXT && column.type() != ColumnType.TIMESTAMPTZ)) {
        return null;
      }
      types[k] = column.type();
    }
    return types;
  }

  /**
   * The ranges of a large dense batch, or null when it has fewer than {@link #RANGE_KEYS} keys or
   * they fill less than half their slots.
   */
  private List<String[]> ranges(List<BatchRow> rows, Set<String> keys) {
    if (rows.size() < RANGE_KEYS) {
      return null; // distinct keys are fewer still: the small batch's hot path does nothing more
    }
    Map<String, Range> spans = new LinkedHashMap<>();
    for (BatchRow row : rows) {
      if (row.from().getNano() % 1_000 != 0) {
        return null; // the server keeps microseconds: only a probe matches it as the cast does
      }
      if (keys.add(row.mergeKey())) {
        List<String> v = row.mergeKeyValues();
        spans
            .computeIfAbsent(
                v.get(maloKey) + '\u001f' + v.get(obisKey),
                g -> new Range(v.get(maloKey), v.get(obisKey), row.from()))
            .widen(row.from());
      }
    }
    long slots = 0;
    for (Range r : spans.values()) {
      slots += Duration.between(r.first, r.last).getSeconds() / slotSeconds + 1;
    }
    if (keys.size() < RANGE_KEYS || slots > 2L * keys.size() || spans.size() * 2 > keys.size()) {
      return null;
    }
    List<String[]> out = new ArrayList<>(spans.size());
    for (Range r : spans.values()) {
      out.add(new String[] {r.malo, r.obis, r.first.toString(), r.last.toString()});
    }
    return out;
  }

  /** One location and OBIS code's first and last {@code from} in a batch. */
  private static final class Range {
    final String malo;
    final String obis;
    Instant first;
    Instant last;

    Range(String malo, String obis, Instant from) {
      this.malo = malo;
      this.obis = obis;
      this.first = from;
      this.last = from;
    }

    void widen(Instant from) {
      if (from.isBefore(first)) {
        first = from;
      } else if (from.isAfter(last)) {
        last = from;
      }
    }
  }

  /** Binds the ranges of {@code lookup} from parameter {@code first}; returns the next index. */
  static int bindRanges(Connection c, PreparedStatement s, Lookup lookup, int first)
      throws SQLException {
    List<List<String>> tuples = new ArrayList<>(lookup.ranges().size());
    for (String[] range : lookup.ranges()) {
      tuples.add(List.of(range));
    }
    return bindColumns(c, s, tuples, 4, first);
  }

  private static int keyPosition(TableLayout layout, String column) {
    int[] key = layout.mergeKey();
    for (int k = 0; k < key.length; k++) {
      if (layout.columns().get(key[k]).name().equals(column)) {
        return k;
      }
    }
    return -1;
  }

  /**
   * Binds the distinct merge keys of {@code rows} from parameter {@code first}.
   *
   * @return the merge keys in the order they were bound, for {@link #read}
   */
  List<String> bind(Connection c, PreparedStatement s, List<BatchRow> rows, int first)
      throws SQLException {
    Map<String, List<String>> keys = new LinkedHashMap<>();
    for (BatchRow row : rows) {
      keys.putIfAbsent(row.mergeKey(), row.mergeKeyValues());
    }
    bindColumns(c, s, new ArrayList<>(keys.values()), layout.mergeKey().length, first);
    return new ArrayList<>(keys.keySet());
  }

  /** The lookup's result: the stored versions by merge key, the keys {@code ordered} as bound. */
  static Map<String, List<StoredVersion>> read(ResultSet rs, List<String> ordered)
      throws SQLException {
    Map<String, List<StoredVersion>> stored = new HashMap<>();
    while (rs.next()) {
      String key = ordered.get(rs.getInt(1) - 1);
      stored.computeIfAbsent(key, k -> new ArrayList<>()).add(read(rs, 2));
    }
    return stored;
  }

  /**
   * A lookup by ranges' result: the stored versions of the rows found whose merge key is one of
   * {@code lookup}'s keys.
   */
  Map<String, List<StoredVersion>> readRanges(ResultSet rs, Lookup lookup) throws SQLException {
    Map<String, List<StoredVersion>> stored = new HashMap<>();
    while (rs.next()) {
      String key = keyOf(rs);
      if (lookup.keys().contains(key)) {
        stored.computeIfAbsent(key, k -> new ArrayList<>()).add(read(rs, rangeKeys.length + 1));
      }
    }
    return stored;
  }

  /**
   * The merge key of the row at {@code rs} as {@link BatchPreparer} writes a batch's: each column's
   * text ({@code Instant.toString()} for a {@code timestamptz}) and a separator.
   */
  private String keyOf(ResultSet rs) throws SQLException {
    StringBuilder key = new StringBuilder();
    for (int k = 0; k < rangeKeys.length; k++) {
      String text =
          rangeKeys[k] == ColumnType.TIMESTAMPTZ
              ? rs.getObject(k + 1, OffsetDateTime.class).toInstant().toString()
              : rs.getString(k + 1);
      key.append(text).append(BatchPreparer.SEPARATOR);
    }
    return key.toString();
  }

  /** Binds {@code columnCount} text arrays, column-wise, from row-wise {@code tuples}. */
  static int bindColumns(
      Connection c, PreparedStatement s, List<List<String>> tuples, int columnCount, int first)
      throws SQLException {
    for (int col = 0; col < columnCount; col++) {
      String[] column = new String[tuples.size()];
      for (int i = 0; i < column.length; i++) {
        column[i] = tuples.get(i).get(col);
      }
      Array array = c.createArrayOf("text", column);
      s.setArray(first + col, array);
    }
    return first + columnCount;
  }

  /** The stored columns from column {@code first} on, in {@link #STORED_COLUMNS}' order. */
  private static StoredVersion read(ResultSet rs, int first) throws SQLException {
    return new StoredVersion(
        rs.getBigDecimal(first).toBigIntegerExact(),
        rs.getString(first + 1),
        rs.getBigDecimal(first + 2),
        rs.getString(first + 3),
        rs.getString(first + 4),
        instant(rs.getObject(first + 5, OffsetDateTime.class)),
        instant(rs.getObject(first + 6, OffsetDateTime.class)));
  }

  private static Instant instant(OffsetDateTime value) {
    return value == null ? null : value.toInstant();
  }
}
