package org.meterstore.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one side answered to one question, per location: the first execution's {@link
 * RowDigest.Fingerprint} of each location, and every later execution checked against it (the data
 * does not change while the questions run, so each execution of a location must return the same
 * rows). {@link #compare} then checks MeterStore's first answer of every location against
 * PostgreSQL's; an empty answer counts as a difference, since every location has readings in every
 * question's range. Thread-safe: the client threads of a run record into one instance.
 */
final class PointAnswers {
  private final Map<Integer, RowDigest.Fingerprint> first = new ConcurrentHashMap<>();
  private final AtomicLong executions = new AtomicLong();
  private final AtomicLong inconsistent = new AtomicLong();
  private final AtomicReference<String> example = new AtomicReference<>();

  /** Asks the baseline about one location it has not been asked about yet. */
  interface Baseline {
    RowDigest.Fingerprint answer(int location) throws Exception;
  }

  /**
   * The outcome of comparing two sides.
   *
   * @param locations locations MeterStore answered (each compared)
   * @param executions MeterStore's executions (each checked against its location's first)
   * @param differ locations whose answers differ between the sides, plus executions that differ
   *     from their side's first answer of the same location
   * @param example the first difference, or empty
   */
  record Comparison(int locations, long executions, long differ, String example) {
    boolean wrong() {
      return differ > 0 || locations == 0;
    }

    @Override
    public String toString() {
      if (locations == 0) {
        return "ANSWERS NOT CHECKED: no location answered";
      }
      String scope =
          String.format(
              java.util.Locale.ROOT,
              "%,d locations compared (first execution of each), %,d MeterStore executions each"
                  + " checked against its location's first",
              locations,
              executions);
      return differ == 0
          ? "answers agree: " + scope
          : "ANSWERS DIFFER (" + differ + "): " + example + "; " + scope;
    }
  }

  /** Records one execution's answer about {@code location}. */
  void record(int location, RowDigest.Fingerprint answer) {
    executions.incrementAndGet();
    RowDigest.Fingerprint before = first.putIfAbsent(location, answer);
    if (before != null && !before.equals(answer)) {
      inconsistent.incrementAndGet();
      example.compareAndSet(
          null, "location " + location + " answered " + before + ", later " + answer);
    }
  }

  /** The first answer about {@code location}, or null. */
  RowDigest.Fingerprint first(int location) {
    return first.get(location);
  }

  /**
   * Compares this side (MeterStore's) with {@code baseline}'s answers, asking {@code ask} about the
   * locations the baseline did not answer in its runs.
   */
  Comparison compare(PointAnswers baseline, Baseline ask) throws Exception {
    long differ = inconsistent.get() + baseline.inconsistent.get();
    String firstDifference = example.get() != null ? example.get() : baseline.example.get();
    for (Map.Entry<Integer, RowDigest.Fingerprint> e : new TreeMap<>(first).entrySet()) {
      RowDigest.Fingerprint theirs = baseline.first(e.getKey());
      if (theirs == null) {
        theirs = ask.answer(e.getKey());
      }
      // every location has readings in every question's range: an empty answer is wrong too
      if (!theirs.equals(e.getValue()) || theirs.rows() == 0) {
        differ++;
        if (firstDifference == null) {
          firstDifference =
              "location " + e.getKey() + ": MeterStore " + e.getValue() + ", baseline " + theirs;
        }
      }
    }
    return new Comparison(first.size(), executions.get(), differ, firstDifference);
  }
}
