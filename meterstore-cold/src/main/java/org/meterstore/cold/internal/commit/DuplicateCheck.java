package org.meterstore.cold.internal.commit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
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
  private static final java.time.Duration LONGEST_SPAN = java.time.Duration.ofDays(32);

  private final TableDefinition definition;
  private final RowConverter converter;
  private final int[] keyIndex;
  private final int version;
  private final int scope;
  private final int value;
  private final int unit;
  private final int quality;
  private final int from;
  private final int to;
  private final int[] spanKeyIndex;
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

  /** A batch classified: one outcome per row in batch order, and the rows to append. */
  record Classified(List<WriteOutcome> outcomes, List<Object[]> toAppend) {}

  /**
   * Whether a stored row could decide a reading of {@code batch}: share its merge key ({@code from}
   * at or after the batch's earliest) or, where spans are checked, overlap one of its spans (a span
   * starting at most {@link #LONGEST_SPAN} before and ending after the batch's earliest start). One
   * planning of the current snapshot with that filter, no file opened. For a window imported at W
   * (every stored {@code from} below W, every batch {@code from} at or above it) it is false on a
   * grid that excludes overlap, and false unless a stored span crosses W otherwise.
   */
  boolean storedCanDecide(Table table, List<Object[]> batch) {
    if (table.currentSnapshot() == null || batch.isEmpty()) {
      return false;
    }
    Instant min = null;
    for (Object[] r : batch) {
      Instant f = (Instant) r[from];
      min = min == null || f.isBefore(min) ? f : min;
    }
    String fromName = StandardColumn.FROM.columnName();
    Expression sameKey = Expressions.greaterThanOrEqual(fromName, micros(min));
    Expression reaching =
        spansChecked()
            ? Expressions.or(
                sameKey,
                Expressions.and(
                    Expressions.greaterThanOrEqual(fromName, micros(min.minus(LONGEST_SPAN))),
                    Expressions.or(
                        Expressions.isNull(StandardColumn.TO.columnName()),
                        Expressions.greaterThan(StandardColumn.TO.columnName(), micros(min)))))
            : sameKey;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(reaching).planFiles()) {
      return tasks.iterator().hasNext();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Classifies {@code batch} against itself alone, by the rules of {@link #classify(Table, List)},
   * for a batch no stored row can decide ({@link #storedCanDecide} false). Instead of hash maps of
   * merge keys and span trees it sorts the batch once by reading and {@code from} (stable, so the
   * readings of one merge key keep their batch order and are classified in it) and walks it: a
   * merge key seen once is {@code INSERTED}, repeats are decided against the key's earlier readings
   * exactly as the general check does. The rows to append come out in that order, grouped by
   * ascending {@code malo_id} as the writer wants them. Returns null when two of the batch's spans
   * of one reading and version overlap: the general check then names the reading.
   *
   * @throws MeterStoreException {@code INTEGRITY_VIOLATION} as {@link #classify(Table, List)}
   */
  Classified classifyAlone(List<Object[]> batch) {
    Integer[] order = new Integer[batch.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Object[][] rows = batch.toArray(new Object[0][]);
    Arrays.sort(order, byReadingAndFrom(rows));
    WriteOutcome[] outcomes = new WriteOutcome[rows.length];
    List<Object[]> toAppend = new ArrayList<>(rows.length);
    List<Object[]> versions = new ArrayList<>();
    SpanEnds ends = new SpanEnds();
    for (int start = 0; start < order.length; ) {
      Object[] first = rows[order[start]];
      int end = start + 1;
      while (end < order.length && sameKey(first, rows[order[end]])) {
        end++;
      }
      if (start > 0 && !sameReading(first, rows[order[start - 1]])) {
        ends.clear();
      }
      versions.clear();
      List<Object> key = end - start > 1 ? key(first) : null;
      for (int i = start; i < end; i++) {
        Object[] row = rows[order[i]];
        WriteOutcome outcome = key == null ? WriteOutcome.INSERTED : classify(row, key, versions);
        if (outcome != WriteOutcome.DUPLICATE) {
          if (spansChecked() && row[to] != null && !ends.admit(row)) {
            return null;
          }
          versions.add(row);
          toAppend.add(row);
        }
        outcomes[order[i]] = outcome;
      }
      start = end;
    }
    return new Classified(Arrays.asList(outcomes), toAppend);
  }

  /**
   * The latest end of the spans admitted so far for each version of one reading. The batch walks a
   * reading's rows by ascending {@code from} and admits at most one per version and start (a repeat
   * is a duplicate or refused), so a span overlaps an earlier one of its version exactly when that
   * version's latest end lies after its start.
   */
  private final class SpanEnds {
    private final List<BigDecimal> versions = new ArrayList<>(2);
    private final List<Instant> ends = new ArrayList<>(2);

    void clear() {
      versions.clear();
      ends.clear();
    }

    boolean admit(Object[] row) {
      BigDecimal v = (BigDecimal) row[version];
      Instant start = (Instant) row[from];
      Instant stop = (Instant) row[to];
      for (int i = 0; i < versions.size(); i++) {
        if (versions.get(i).compareTo(v) == 0) {
          if (ends.get(i).isAfter(start)) {
            return false;
          }
          ends.set(i, later(ends.get(i), stop));
          return true;
        }
      }
      versions.add(v);
      ends.add(stop);
      return true;
    }
  }

  /** By the reading's columns (the merge key without {@code from}), then by {@code from}. */
  private Comparator<Integer> byReadingAndFrom(Object[][] rows) {
    return (a, b) -> {
      Object[] x = rows[a];
      Object[] y = rows[b];
      for (int i : spanKeyIndex) {
        int c = compare(x[i], y[i]);
        if (c != 0) {
          return c;
        }
      }
      return ((Instant) x[from]).compareTo((Instant) y[from]);
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a == b) {
      return 0;
    }
    if (a == null || b == null) {
      return a == null ? -1 : 1;
    }
    return ((Comparable) a).compareTo(b);
  }

  private boolean sameReading(Object[] a, Object[] b) {
    for (int i : spanKeyIndex) {
      if (compare(a[i], b[i]) != 0) {
        return false;
      }
    }
    return true;
  }

  private boolean sameKey(Object[] a, Object[] b) {
    return a[from].equals(b[from]) && sameReading(a, b);
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

  private List<Object> spanKey(Object[] row) {
    List<Object> key = new ArrayList<>(spanKeyIndex.length);
    for (int i : spanKeyIndex) {
      key.add(row[i]);
    }
    return key;
  }

  private WriteOutcome classify(Object[] row, List<Object> key, List<Object[]> versions) {
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

  private List<Object> key(Object[] row) {
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
  private boolean spansChecked() {
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

  private static Instant later(Instant a, Instant b) {
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

  private static long micros(Instant i) {
    return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
  }
}
