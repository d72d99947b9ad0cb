package org.meterstore.cold.internal.commit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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
   * earliest start). One planning of the current snapshot with that filter, no file opened. For a
   * window imported at W (every stored {@code from} below W, every batch {@code from} at or above
   * it) it is false on a grid that excludes overlap, and false unless a stored span crosses W
   * otherwise.
   */
  boolean storedCanDecide(Table table, List<Object[]> batch) {
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
    try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(reaching).planFiles()) {
      return tasks.iterator().hasNext();
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
      List<Object> key = end - start > 1 ? check.key(first) : null;
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

  /** By the reading's columns (the merge key without {@code from}), then by {@code from}. */
  private Comparator<Integer> byReadingAndFrom(Object[][] rows) {
    return (a, b) -> {
      Object[] x = rows[a];
      Object[] y = rows[b];
      for (int i : check.spanKeyIndex) {
        int c = compare(x[i], y[i]);
        if (c != 0) {
          return c;
        }
      }
      return ((Instant) x[check.from]).compareTo((Instant) y[check.from]);
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
    for (int i : check.spanKeyIndex) {
      if (compare(a[i], b[i]) != 0) {
        return false;
      }
    }
    return true;
  }

  private boolean sameKey(Object[] a, Object[] b) {
    return a[check.from].equals(b[check.from]) && sameReading(a, b);
  }
}
