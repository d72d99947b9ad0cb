package org.meterstore.hot.write;

import java.util.List;
import org.meterstore.api.reading.WriteOutcome;

/**
 * The outcome of one written batch.
 *
 * @param outcomes one outcome per delivered reading, in the order of the batch; never null
 */
public record WriteResult(List<WriteOutcome> outcomes) {
  /** Copies the list; it must not be null or contain null. */
  public WriteResult {
    outcomes = List.copyOf(outcomes);
  }

  /** The outcome of the reading at {@code index} in the batch. */
  public WriteOutcome outcome(int index) {
    return outcomes.get(index);
  }

  /** How many readings the batch held. */
  public int size() {
    return outcomes.size();
  }

  /** How many readings had {@code outcome}. */
  public int count(WriteOutcome outcome) {
    return (int) outcomes.stream().filter(o -> o == outcome).count();
  }

  /** How many rows were stored: inserted, superseding or shadowed. */
  public int stored() {
    return size() - duplicates();
  }

  /** How many readings were redeliveries, skipped. */
  public int duplicates() {
    return count(WriteOutcome.DUPLICATE);
  }
}
