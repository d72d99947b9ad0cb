package org.meterstore.cold.internal.commit;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ResolutionKey;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.scan.FooterCache;

/**
 * The cold duplicate check of a late-correction batch (DESIGN § 3.3). It scans only the rows that
 * can share a merge key with the batch — {@code malo_id} and {@code obis_code} in the batch's sets
 * and {@code from} within its range, which prunes partitions by month and files by statistics and
 * bloom filters — and classifies each reading against them and against the batch's earlier
 * readings: same key and version with the same value, unit and quality is a {@code DUPLICATE}; with
 * anything else it is an integrity violation; a different version scope for the same key (a second
 * network operator) is one too, and so is an interval overlapping another start of the same reading
 * under the same version ({@code spans_do_not_overlap}; where the grid allows overlap, the scan
 * reaches one month before the batch's earliest start for that). It keeps only the stored rows that
 * decide a batch reading, so its memory grows with the batch.
 */
final class DuplicateCheck {
  /**
   * How far before the batch's earliest start a stored span can begin and still overlap it: the
   * longest interval a reading can have is one balancing month (P1M, at most 31 days and an hour).
   */
  static final java.time.Duration LONGEST_SPAN = java.time.Duration.ofDays(32);

  private final TableDefinition definition;
  private final RowConverter converter;
  private final int[] keyIndex;
  final int version;
  private final int scope;
  private final int value;
  private final int unit;
  private final int quality;
  final int from;
  final int to;
  final int[] spanKeyIndex;
  private final FooterCache footers;

  /** A check of {@code definition}'s batches; {@code footers} may be null (no cache). */
  DuplicateCheck(TableDefinition definition, RowConverter converter, FooterCache footers) {
    this.definition = definition;
    this.footers = footers;
    this.converter = converter;
    ResolutionKey resolution = ResolutionKey.of(definition);
    this.keyIndex = resolution.mergeKey().stream().mapToInt(converter::indexOf).toArray();
    this.version = converter.indexOf(StandardColumn.VERSION.columnName());
    this.scope = converter.indexOf(resolution.scope());
    this.value = converter.indexOf(StandardColumn.VALUE.columnName());
    this.unit = converter.indexOf(StandardColumn.UNIT.columnName());
    this.quality = converter.indexOf(StandardColumn.QUALITY.columnName());
    this.from = converter.indexOf(StandardColumn.FROM.columnName());
    this.to = converter.indexOf(StandardColumn.TO.columnName());
    this.spanKeyIndex = resolution.reading().stream().mapToInt(converter::indexOf).toArray();
  }

  /**
   * One outcome per row of {@code batch}.
   *
   * @throws MeterStoreException {@code INTEGRITY_VIOLATION} naming the table and the reading
   */
  List<WriteOutcome> classify(Table table, List<Object[]> batch) {
    Map<List<Object>, List<Object[]>> stored = storedByKey(table, batch);
    // On a grid that excludes overlap two spans of one reading and version overlap only by sharing
    // from, that is the whole merge key, which the version check decides: no span index needed.
    boolean spansChecked = spansChecked();
    Map<List<Object>, TreeMap<Instant, Object[]>> spans = new HashMap<>();
    if (spansChecked) {
      stored.values().forEach(rows -> rows.forEach(r -> indexSpan(spans, spanVersionKey(r), r)));
    }
    List<WriteOutcome> outcomes = new ArrayList<>(batch.size());
    for (Object[] row : batch) {
      List<Object> key = key(row);
      List<Object[]> versions = stored.computeIfAbsent(key, k -> new ArrayList<>(1));
      WriteOutcome outcome = classify(row, key, versions);
      if (outcome != WriteOutcome.DUPLICATE) {
        if (spansChecked && row[to] != null) {
          List<Object> spanKey = spanVersionKey(row);
          requireNoOverlap(row, key, spans.get(spanKey));
          indexSpan(spans, spanKey, row);
        }
        versions.add(row);
      }
      outcomes.add(outcome);
    }
    return outcomes;
  }

  /**
   * Spans by reading (the merge key without {@code from}) and version, ordered by start. Spans of
   * one reading and version never overlap each other (each was checked when it was stored), so a
   * new span can only overlap its nearest neighbours: the last one starting before it and the first
   * one starting after it. That keeps a batch of many thousand rows per reading linear.
   */
  private void indexSpan(
      Map<List<Object>, TreeMap<Instant, Object[]>> spans, List<Object> spanKey, Object[] row) {
    if (row[to] == null) {
      return;
    }
    spans.computeIfAbsent(spanKey, k -> new TreeMap<>()).putIfAbsent((Instant) row[from], row);
  }

  private List<Object> spanVersionKey(Object[] row) {
    List<Object> key = spanKey(row);
    key.add(((BigDecimal) row[version]).toBigInteger());
    return key;
  }

  /**
   * {@code spans_do_not_overlap} (DESIGN § 3.3): another start of the same reading under the same
   * version must not overlap {@code row}'s interval. Point readings have no interval.
   */
  private void requireNoOverlap(Object[] row, List<Object> key, TreeMap<Instant, Object[]> same) {
    if (row[to] == null || same == null) {
      return;
    }
    Instant start = (Instant) row[from];
    Instant end = (Instant) row[to];
    Map.Entry<Instant, Object[]> before = same.lowerEntry(start);
    if (before != null && ((Instant) before.getValue()[to]).isAfter(start)) {
      throw overlap(row, key, before.getValue());
    }
    Map.Entry<Instant, Object[]> after = same.higherEntry(start);
    if (after != null && after.getKey().isBefore(end)) {
      throw overlap(row, key, after.getValue());
    }
  }

  private MeterStoreException overlap(Object[] row, List<Object> key, Object[] other) {
    return violation(
        key,
        "spans_do_not_overlap: ["
            + row[from]
            + ", "
            + row[to]
            + ") overlaps the stored span ["
            + other[from]
            + ", "
            + other[to]
            + ") of the same reading and version");
  }

  List<Object> spanKey(Object[] row) {
    List<Object> key = new ArrayList<>(spanKeyIndex.length);
    for (int i : spanKeyIndex) {
      key.add(row[i]);
    }
    return key;
  }

  /** The outcome of {@code row} against the stored and earlier {@code versions} of its key. */
  WriteOutcome classify(Object[] row, List<Object> key, List<Object[]> versions) {
    BigDecimal v = (BigDecimal) row[version];
    BigDecimal highest = null;
    for (Object[] other : versions) {
      if (!row[scope].equals(other[scope])) {
        throw violation(key, "a reading has one network operator; stored scope " + other[scope]);
      }
      BigDecimal ov = (BigDecimal) other[version];
      if (ov.compareTo(v) == 0) {
        if (sameContent(row, other)) {
          return WriteOutcome.DUPLICATE;
        }
        throw violation(key, "version " + v + " is stored with another value, unit or quality");
      }
      highest = highest == null || ov.compareTo(highest) > 0 ? ov : highest;
    }
    if (highest == null) {
      return WriteOutcome.INSERTED;
    }
    return v.compareTo(highest) > 0 ? WriteOutcome.SUPERSEDED : WriteOutcome.SHADOWED;
  }

  private boolean sameContent(Object[] a, Object[] b) {
    return ((BigDecimal) a[value]).compareTo((BigDecimal) b[value]) == 0
        && a[unit].equals(b[unit])
        && a[quality].equals(b[quality]);
  }

  private MeterStoreException violation(List<Object> key, String rule) {
    return new MeterStoreException(
        ErrorKind.INTEGRITY_VIOLATION,
        "Cannot append late correction "
            + definition.mergeKey()
            + "="
            + key
            + " to cold table "
            + definition.name()
            + ": "
            + rule);
  }

  List<Object> key(Object[] row) {
    List<Object> key = new ArrayList<>(keyIndex.length);
    for (int i : keyIndex) {
      key.add(row[i]);
    }
    return key;
  }

  /**
   * The stored rows that can decide a reading of {@code batch}: those with a merge key in the batch
   * and, where spans are checked, those whose span overlaps a batch reading's span of the same
   * reading. What the scan reads beside them (every row of the batch's locations in its range) is
   * dropped as it streams by, so the memory this takes grows with the batch, not with the stored
   * month: a restatement of every location's month would otherwise hold the month.
   */
  private Map<List<Object>, List<Object[]>> storedByKey(Table table, List<Object[]> batch) {
    Map<List<Object>, List<Object[]>> stored = new HashMap<>();
    if (table.currentSnapshot() == null) {
      return stored;
    }
    Set<List<Object>> keys = new HashSet<>();
    batch.forEach(r -> keys.add(key(r)));
    Map<List<Object>, NavigableMap<Instant, Instant>> reach = spansChecked() ? reach(batch) : null;
    new StoredSpans(table, converter, compared(), footers, definition.name())
        .scan(
            filter(batch),
            row -> {
              List<Object> key = key(row);
              if (keys.contains(key) || (reach != null && overlapsBatch(reach, row))) {
                stored.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
              }
            });
    return stored;
  }

  /** The row positions of the columns the check compares. */
  private List<Integer> compared() {
    Set<Integer> columns = new java.util.TreeSet<>();
    for (int i : keyIndex) {
      columns.add(i);
    }
    for (int i : spanKeyIndex) {
      columns.add(i);
    }
    columns.addAll(List.of(version, scope, value, unit, quality, from, to));
    return List.copyOf(columns);
  }

  /** On a grid that excludes overlap, the version check decides everything (see classify). */
  boolean spansChecked() {
    return !definition.gridExcludesOverlap();
  }

  /**
   * The batch's spans by reading (the merge key without {@code from}), each start mapped to the
   * latest end of any span starting at or before it: a stored span {@code [s, e)} overlaps one of
   * them exactly when the entry of the last start before {@code e} ends after {@code s}.
   */
  private Map<List<Object>, NavigableMap<Instant, Instant>> reach(List<Object[]> batch) {
    Map<List<Object>, NavigableMap<Instant, Instant>> reach = new HashMap<>();
    for (Object[] r : batch) {
      if (r[to] != null) {
        reach
            .computeIfAbsent(spanKey(r), k -> new TreeMap<>())
            .merge((Instant) r[from], (Instant) r[to], DuplicateCheck::later);
      }
    }
    for (NavigableMap<Instant, Instant> spans : reach.values()) {
      Instant latest = null;
      for (Map.Entry<Instant, Instant> e : spans.entrySet()) {
        latest = latest == null ? e.getValue() : later(latest, e.getValue());
        e.setValue(latest);
      }
    }
    return reach;
  }

  private boolean overlapsBatch(
      Map<List<Object>, NavigableMap<Instant, Instant>> reach, Object[] row) {
    if (row[to] == null) {
      return false;
    }
    NavigableMap<Instant, Instant> spans = reach.get(spanKey(row));
    Map.Entry<Instant, Instant> before = spans == null ? null : spans.lowerEntry((Instant) row[to]);
    return before != null && before.getValue().isAfter((Instant) row[from]);
  }

  static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private Expression filter(List<Object[]> batch) {
    int malo = converter.indexOf(StandardColumn.MALO_ID.columnName());
    int obis = converter.indexOf(StandardColumn.OBIS_CODE.columnName());
    Set<String> malos = new HashSet<>();
    Set<String> obisCodes = new HashSet<>();
    Instant min = null;
    Instant max = null;
    for (Object[] r : batch) {
      malos.add((String) r[malo]);
      obisCodes.add((String) r[obis]);
      Instant f = (Instant) r[from];
      min = min == null || f.isBefore(min) ? f : min;
      max = max == null || f.isAfter(max) ? f : max;
    }
    String fromName = StandardColumn.FROM.columnName();
    String toName = StandardColumn.TO.columnName();
    // A stored row that matters ends after the batch's earliest start (or has no end): one with
    // the same merge key ends after its own from >= min, an overlapping span after the start it
    // overlaps. Files of earlier windows (every to <= min) are pruned by their statistics without
    // being opened: an import of a window at W then reads only spans that cross W.
    return Expressions.and(
        Expressions.in(StandardColumn.MALO_ID.columnName(), malos.toArray()),
        Expressions.in(StandardColumn.OBIS_CODE.columnName(), obisCodes.toArray()),
        Expressions.greaterThanOrEqual(
            fromName, micros(spansChecked() ? min.minus(LONGEST_SPAN) : min)),
        Expressions.lessThanOrEqual(fromName, micros(max)),
        Expressions.or(Expressions.isNull(toName), Expressions.greaterThan(toName, micros(min))));
  }

  static long micros(Instant i) {
    return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
  }
}
