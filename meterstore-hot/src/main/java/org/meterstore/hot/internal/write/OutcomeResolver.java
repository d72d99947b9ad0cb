package org.meterstore.hot.internal.write;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.meterstore.api.reading.WriteOutcome;

/**
 * Decides each reading's outcome as if the batch were delivered one reading at a time, against the
 * versions already stored and those accepted earlier in the batch (DESIGN § 3.3, § 4):
 *
 * <ul>
 *   <li>same merge key and version stored: {@code DUPLICATE} when value, unit, quality, scope and
 *       span agree, else a violation;
 *   <li>the merge key stored under another network operator: a violation;
 *   <li>else stored: {@code INSERTED} as the first version in its scope, {@code SUPERSEDED} when it
 *       outranks every stored version of its scope (higher version; ties by later {@code
 *       recorded_at}), {@code SHADOWED} otherwise.
 * </ul>
 *
 * Pure: no database, no clock. Not thread-safe (one instance per batch).
 */
final class OutcomeResolver {
  private final String table;
  private final Instant now;
  private final Map<String, List<StoredVersion>> byMergeKey;
  private final List<WriteOutcome> outcomes = new ArrayList<>();
  private final List<BatchRow> toInsert = new ArrayList<>();

  /**
   * @param stored the stored versions by merge key; copied, then extended by the batch
   */
  OutcomeResolver(String table, Instant now, Map<String, List<StoredVersion>> stored) {
    this.table = table;
    this.now = now;
    this.byMergeKey = new HashMap<>();
    stored.forEach((k, v) -> byMergeKey.put(k, new ArrayList<>(v)));
  }

  /** Decides the next reading of the batch; throws the violation it commits, if any. */
  void accept(BatchRow row) {
    List<StoredVersion> versions =
        byMergeKey.computeIfAbsent(row.mergeKey(), k -> new ArrayList<>());
    StoredVersion candidate = StoredVersion.of(row, now);
    for (StoredVersion v : versions) {
      if (v.version().equals(row.version())) {
        outcomes.add(redelivery(row, v, candidate));
        return;
      }
    }
    for (StoredVersion v : versions) {
      if (!v.operator().equals(row.operator())) {
        throw Violation.SECOND_OPERATOR.refuse(
            table,
            row,
            "names operator "
                + row.operator()
                + ", but "
                + v.operator()
                + " delivers this reading");
      }
    }
    outcomes.add(rank(candidate, versions));
    versions.add(candidate);
    toInsert.add(row);
  }

  /** One outcome per accepted reading, in batch order. */
  List<WriteOutcome> outcomes() {
    return List.copyOf(outcomes);
  }

  /** The readings to insert, in batch order (never two with the same primary key). */
  List<BatchRow> toInsert() {
    return List.copyOf(toInsert);
  }

  private WriteOutcome redelivery(BatchRow row, StoredVersion stored, StoredVersion delivered) {
    if (!stored.operator().equals(delivered.operator())) {
      throw Violation.SECOND_OPERATOR.refuse(
          table,
          row,
          "names operator "
              + delivered.operator()
              + ", but "
              + stored.operator()
              + " delivers this reading");
    }
    if (!Objects.equals(stored.to(), delivered.to())) {
      throw Violation.SPANS_OVERLAP.refuse(
          table,
          row,
          "ends at "
              + delivered.to()
              + ", but version "
              + stored.version()
              + " of it is stored ending at "
              + stored.to());
    }
    boolean same =
        stored.value().compareTo(delivered.value()) == 0
            && stored.unit().equals(delivered.unit())
            && stored.quality().equals(delivered.quality())
            && stored.scope().equals(delivered.scope());
    if (!same) {
      throw Violation.VALUE_RESTATED.refuse(
          table,
          row,
          "restates version "
              + stored.version()
              + ": stored "
              + show(stored)
              + ", delivered "
              + show(delivered));
    }
    return WriteOutcome.DUPLICATE;
  }

  private static WriteOutcome rank(StoredVersion candidate, List<StoredVersion> versions) {
    StoredVersion winner = null;
    for (StoredVersion v : versions) {
      if (v.scope().equals(candidate.scope()) && (winner == null || v.outranks(winner))) {
        winner = v;
      }
    }
    if (winner == null) {
      return WriteOutcome.INSERTED;
    }
    return candidate.outranks(winner) ? WriteOutcome.SUPERSEDED : WriteOutcome.SHADOWED;
  }

  private static String show(StoredVersion v) {
    return v.value().toPlainString() + " " + v.unit() + " " + v.quality() + " scope " + v.scope();
  }
}
