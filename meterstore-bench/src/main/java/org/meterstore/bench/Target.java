package org.meterstore.bench;

/**
 * A benchmark's target from issue #9: a bound on the ratio MeterStore / baseline or on MeterStore's
 * own value.
 *
 * @param subject what is bounded
 * @param atLeast true for a lower bound ({@code >=}), false for an upper bound ({@code <=})
 * @param bound the bound
 */
public record Target(Subject subject, boolean atLeast, double bound) {

  /** What a target bounds. */
  public enum Subject {
    /** MeterStore's value divided by the baseline's. */
    RATIO,
    /** MeterStore's value itself, in the result's unit. */
    VALUE
  }

  /** ratio >= bound. */
  public static Target ratioAtLeast(double bound) {
    return new Target(Subject.RATIO, true, bound);
  }

  /** ratio <= bound. */
  public static Target ratioAtMost(double bound) {
    return new Target(Subject.RATIO, false, bound);
  }

  /** MeterStore's value >= bound. */
  public static Target valueAtLeast(double bound) {
    return new Target(Subject.VALUE, true, bound);
  }

  /** MeterStore's value <= bound. */
  public static Target valueAtMost(double bound) {
    return new Target(Subject.VALUE, false, bound);
  }

  /** Whether {@code meterstore} (and the ratio) meet this target; false for NaN. */
  public boolean met(double meterstore, double ratio) {
    double x = subject == Subject.RATIO ? ratio : meterstore;
    if (Double.isNaN(x)) {
      return false;
    }
    return atLeast ? x >= bound : x <= bound;
  }

  /** E.g. {@code ratio >= 0.5} or {@code value <= 256}. */
  @Override
  public String toString() {
    return (subject == Subject.RATIO ? "ratio" : "value")
        + (atLeast ? " >= " : " <= ")
        + java.math.BigDecimal.valueOf(bound).stripTrailingZeros().toPlainString();
  }
}
