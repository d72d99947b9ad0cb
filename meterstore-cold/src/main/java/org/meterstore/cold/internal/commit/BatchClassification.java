package org.meterstore.cold.internal.commit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.StandardColumn;

/**
 * The classification of a window imported at W where nothing stored can decide a reading: whether
 * that is so, from the table's metadata ({@link #storedCanDecide}), and the batch classified
 * against itself alone ({@link #classifyAlone}) by the rules of {@link DuplicateCheck}, whose
 * per-row decision it calls.
 */
final class BatchClassification {
  private final DuplicateCheck check;

  /** The in-batch classification of {@code check}'s table. */
  BatchClassification(DuplicateCheck check) {
    this.check = check;
  }

  /** A batch classified: one outcome per row in batch order, and the rows to append. */
  record Classified(List<WriteOutcome> outcomes, List<Object[]> toAppend) {}

  /**
   * Whether a stored row could decide a reading of {@code batch}: share its merge key ({@code from}
   * at or after the batch's earliest) or, where spans are checked, overlap one of its spans (a span
   * starting at most {@link #DuplicateCheck.LONGEST_SPAN} before and ending after the batch's
   * earliest start). One planning of the current snapshot with that filter, no file opened, or only
   * the files added since the snapshot {@code memo} saw last ({@link StoredReach}). For a window
   * imported at W (every stored {@code from} below W, every batch {@code from} at or above it) it
   * is false on a grid that excludes overlap, and false unless a stored span crosses W otherwise.
   */
  boolean storedCanDecide(Table table, List<Object[]> batch, StoredReach memo) {
    if (table.currentSnapshot() == null || batch.isEmpty()) {
      return false;
    }
    Instant min = null;
    for (Object[] r : batch) {
      Instant f = (Instant) r[check.from];
      min = min == null || f.isBefore(min) ? f : min;
    }
    String fromName = StandardColumn.FROM.columnName();
    Expression sameKey = Expressions.greaterThanOrEqual(fromName, DuplicateCheck.micros(min));
    Expression reaching =
        check.spansChecked()
            ? Expressions.or(
                sameKey,
                Expressions.and(
                    Expressions.greaterThanOrEqual(
                        fromName, DuplicateCheck.micros(min.minus(DuplicateCheck.LONGEST_SPAN))),
                    Expressions.or(
                        Expressions.isNull(StandardColumn.TO.columnName()),
                        Expressions.greaterThan(
                            StandardColumn.TO.columnName(), DuplicateCheck.micros(min)))))
            : sameKey;
    if (memo.reaches(table, min, reaching) == Boolean.FALSE) {
      return false;
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(reaching).planFiles()) {
      boolean reaches = tasks.iterator().hasNext();
      if (!reaches) {
        memo.nothingReaches(table, min);
      }
      return reaches;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Classifies {@code batch} against itself alone, by the rules of {@link
   * DuplicateCheck#classify(Table, List)}, for a batch no stored row can decide ({@link
   * #storedCanDecide} false). Instead of hash maps of merge keys and span trees it sorts the batch
   * once by reading and {@code from} (stable, so the readings of one merge key keep their batch
   * order and are classified in it) and walks it: a merge key seen once is {@code INSERTED},
   * repeats are decided against the key's earlier readings exactly as the general check does. The
   * rows to append come out in that order, grouped by ascending {@code malo_id} as the writer wants
   * them. Returns null when two of the batch's spans of one reading and version overlap: the
   * general check then names the reading.
   *
   * @throws MeterStoreException {@code INTEGRITY_VIOLATION} as {@link
   *     DuplicateCheck#classify(Table, List)}
   */
  Classified classifyAlone(List<Object[]> batch) {
    Object[][] rows = batch.toArray(new Object[0][]);
    Ranks ranks = new Ranks(rows);
    int[] order = ranks.order();
    WriteOutcome[] outcomes = new WriteOutcome[rows.length];
    List<Object[]> toAppend = new ArrayList<>(rows.length);
    List<Object[]> versions = new ArrayList<>();
    SpanEnds ends = new SpanEnds();
    for (int start = 0; start < order.length; ) {
      int first = order[start];
      int end = start + 1;
      while (end < order.length && ranks.sameKey(first, order[end])) {
        end++;
      }
      if (start > 0 && !ranks.sameReading(first, order[start - 1])) {
        ends.clear();
      }
      versions.clear();
      List<Object> key = end - start > 1 ? check.key(rows[first]) : null;
      for (int i = start; i < end; i++) {
        Object[] row = rows[order[i]];
        WriteOutcome outcome =
            key == null ? WriteOutcome.INSERTED : check.classify(row, key, versions);
        if (outcome != WriteOutcome.DUPLICATE) {
          if (check.spansChecked() && row[check.to] != null && !ends.admit(row)) {
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
   * The batch's rows ranked by reading (the merge key without {@code from}) and by {@code from}:
   * each distinct reading and each distinct {@code from} gets its place among the batch's distinct
   * ones, so the batch sorts as numbers (reading, {@code from}, batch position) instead of by
   * comparing columns row against row, and two rows share a reading or a merge key when their ranks
   * are equal. A batch of more than {@value #MAX_ROWS} rows sorts by the columns.
   */
  private final class Ranks {
    static final int MAX_ROWS = 1 << 20;
    private final Object[][] rows;
    private final int[] reading;
    private final int[] from;

    Ranks(Object[][] rows) {
      this.rows = rows;
      this.reading = new int[rows.length];
      this.from = new int[rows.length];
      Map<List<Object>, Integer> readings = new HashMap<>();
      List<Object[]> firstOfReading = new ArrayList<>();
      Map<Instant, Integer> froms = new HashMap<>();
      List<Instant> distinctFroms = new ArrayList<>();
      for (int i = 0; i < rows.length; i++) {
        Object[] row = rows[i];
        Integer id = readings.putIfAbsent(check.spanKey(row), firstOfReading.size());
        if (id == null) {
          id = firstOfReading.size();
          firstOfReading.add(row);
        }
        reading[i] = id;
        Instant f = (Instant) row[check.from];
        Integer fid = froms.putIfAbsent(f, distinctFroms.size());
        if (fid == null) {
          fid = distinctFroms.size();
          distinctFroms.add(f);
        }
        from[i] = fid;
      }
      rank(reading, firstOfReading, BatchClassification.this::compareReadings);
      rank(from, distinctFroms, Comparator.naturalOrder());
    }

    /** Replaces each id in {@code ids} by the place of its value among {@code distinct}. */
    private static <T> void rank(int[] ids, List<T> distinct, Comparator<? super T> by) {
      Integer[] sorted = new Integer[distinct.size()];
      for (int i = 0; i < sorted.length; i++) {
        sorted[i] = i;
      }
      Arrays.sort(sorted, (a, b) -> by.compare(distinct.get(a), distinct.get(b)));
      int[] place = new int[sorted.length];
      for (int p = 0; p < sorted.length; p++) {
        place[sorted[p]] = p;
      }
      for (int i = 0; i < ids.length; i++) {
        ids[i] = place[ids[i]];
      }
    }

    /** The batch positions in (reading, {@code from}, position) order. */
    int[] order() {
      int n = rows.length;
      int[] order = new int[n];
      if (n > MAX_ROWS) {
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
          boxed[i] = i;
        }
        Arrays.sort(
            boxed,
            Comparator.<Integer>comparingInt(i -> reading[i]).thenComparingInt(i -> from[i]));
        for (int i = 0; i < n; i++) {
          order[i] = boxed[i];
        }
        return order;
      }
      // ranks and positions are below 2^20 each: three fields of a long
      long[] keys = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = ((long) reading[i] << 40) | ((long) from[i] << 20) | i;
      }
      Arrays.sort(keys);
      for (int i = 0; i < n; i++) {
        order[i] = (int) (keys[i] & (MAX_ROWS - 1));
      }
      return order;
    }

    boolean sameReading(int a, int b) {
      return reading[a] == reading[b];
    }

    boolean sameKey(int a, int b) {
      return reading[a] == reading[b] && from[a] == from[b];
    }
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
      BigDecimal v = (BigDecimal) row[check.version];
      Instant start = (Instant) row[check.from];
      Instant stop = (Instant) row[check.to];
      for (int i = 0; i < versions.size(); i++) {
        if (versions.get(i).compareTo(v) == 0) {
          if (ends.get(i).isAfter(start)) {
            return false;
          }
          ends.set(i, DuplicateCheck.later(ends.get(i), stop));
          return true;
        }
      }
      versions.add(v);
      ends.add(stop);
      return true;
    }
  }

  /** By the reading's columns (the merge key without {@code from}), null first. */
  private int compareReadings(Object[] x, Object[] y) {
    for (int i : check.spanKeyIndex) {
      int c = compare(x[i], y[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
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
}
