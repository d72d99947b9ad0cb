package org.meterstore.api.reading;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one written batch: per reading, in batch order, what happened to it and the tier
 * that holds it now.
 *
 * @param outcomes one outcome per delivered reading, in the order of the batch; never null
 * @param tiers the tier of each reading, same order and size as {@code outcomes}
 */
public record WriteResult(List<WriteOutcome> outcomes, List<Tier> tiers) {
  /** Copies both lists; they must have one entry per reading and contain no null. */
  public WriteResult {
    outcomes = List.copyOf(outcomes);
    tiers = List.copyOf(tiers);
    if (outcomes.size() != tiers.size()) {
      throw new IllegalArgumentException(
          "Invalid tiers: " + tiers.size() + " for " + outcomes.size() + " outcomes (one each)");
    }
  }

  /** A result whose readings all went to {@code tier}. */
  public static WriteResult allIn(Tier tier, List<WriteOutcome> outcomes) {
    Objects.requireNonNull(tier, "tier");
    return new WriteResult(outcomes, java.util.Collections.nCopies(outcomes.size(), tier));
  }

  /** The outcome of the reading at {@code index} in the batch. */
  public WriteOutcome outcome(int index) {
    return outcomes.get(index);
  }

  /** The tier that holds the reading at {@code index} in the batch. */
  public Tier tier(int index) {
    return tiers.get(index);
  }

  /** How many readings the batch held. */
  public int size() {
    return outcomes.size();
  }

  /** How many readings had {@code outcome}. */
  public int count(WriteOutcome outcome) {
    return (int) outcomes.stream().filter(o -> o == outcome).count();
  }

  /** How many readings went to {@code tier} (redeliveries included). */
  public int count(Tier tier) {
    return (int) tiers.stream().filter(t -> t == tier).count();
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
