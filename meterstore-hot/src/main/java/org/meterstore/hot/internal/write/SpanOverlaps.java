package org.meterstore.hot.internal.write;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds overlapping spans of one reading under one version within a batch, wherever their
 * partitions lie. Within one partition the exclusion constraint would catch them too; across a
 * partition bound nothing else would, and here the message can name both readings. Pure.
 */
final class SpanOverlaps {
  private SpanOverlaps() {}

  /** Refuses the batch when two of {@code rows} (interval readings) overlap. */
  static void check(String table, List<BatchRow> rows) {
    Map<String, List<BatchRow>> bySpanKey = new HashMap<>();
    for (BatchRow row : rows) {
      if (row.to() != null) {
        bySpanKey.computeIfAbsent(row.spanKey(), k -> new ArrayList<>()).add(row);
      }
    }
    for (List<BatchRow> spans : bySpanKey.values()) {
      if (spans.size() > 1) {
        checkSorted(table, spans);
      }
    }
  }

  private static void checkSorted(String table, List<BatchRow> spans) {
    spans.sort(Comparator.comparing(BatchRow::from));
    BatchRow reach = spans.get(0);
    for (BatchRow next : spans.subList(1, spans.size())) {
      if (next.from().isBefore(reach.to())) {
        BatchRow later = next.index() > reach.index() ? next : reach;
        BatchRow earlier = later == next ? reach : next;
        throw Violation.SPANS_OVERLAP.refuse(
            table,
            later,
            "overlaps reading #"
                + earlier.index()
                + " of the same batch under version "
                + later.version());
      }
      if (next.to().isAfter(reach.to())) {
        reach = next;
      }
    }
  }
}
