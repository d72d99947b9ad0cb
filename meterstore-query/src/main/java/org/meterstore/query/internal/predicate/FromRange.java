package org.meterstore.query.internal.predicate;

import java.time.Instant;

/**
 * A half-open range {@code [lower, upper)} of {@code from} values a query may need, extracted from
 * its predicates so that it errs only wider: {@link Instant#MIN} and {@link Instant#MAX} stand for
 * unbounded.
 *
 * @param lower inclusive lower bound
 * @param upper exclusive upper bound
 */
public record FromRange(Instant lower, Instant upper) {
  /** Every instant. */
  public static final FromRange ALL = new FromRange(Instant.MIN, Instant.MAX);

  /** No instant. */
  public static final FromRange EMPTY = new FromRange(Instant.MAX, Instant.MIN);

  /** Whether no instant lies in the range. */
  public boolean isEmpty() {
    return !lower.isBefore(upper);
  }

  /** The intersection. */
  public FromRange intersect(FromRange other) {
    return new FromRange(max(lower, other.lower), min(upper, other.upper));
  }

  /** The smallest range containing both. */
  public FromRange span(FromRange other) {
    if (isEmpty()) {
      return other;
    }
    if (other.isEmpty()) {
      return this;
    }
    return new FromRange(min(lower, other.lower), max(upper, other.upper));
  }

  @Override
  public String toString() {
    if (isEmpty()) {
      return "[]";
    }
    return "["
        + (lower.equals(Instant.MIN) ? "-inf" : lower.toString())
        + ", "
        + (upper.equals(Instant.MAX) ? "+inf" : upper.toString())
        + ")";
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
