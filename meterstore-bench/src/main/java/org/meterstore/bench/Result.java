package org.meterstore.bench;

/**
 * One line of the results: MeterStore's figure and its baseline's, measured in the same run.
 *
 * @param name the benchmark, e.g. {@code hot-ingest}
 * @param dataset what was measured on, e.g. {@code 250 meters x 96 quarter-hours}
 * @param metric the measure and its unit, e.g. {@code readings/s}
 * @param meterstore MeterStore's value
 * @param baselineName what it is compared with
 * @param baseline the baseline's value
 * @param target the target, or null when the line is informational
 * @param note what the reader must know to read the figure (may be empty)
 * @param wrongAnswer whether MeterStore's answers differed from the baseline's: such a line never
 *     meets its target (with or without one), and the run exits with a failure status
 */
public record Result(
    String name,
    String dataset,
    String metric,
    double meterstore,
    String baselineName,
    double baseline,
    Target target,
    String note,
    boolean wrongAnswer) {

  /** A line whose answers were not compared, or agreed. */
  public Result(
      String name,
      String dataset,
      String metric,
      double meterstore,
      String baselineName,
      double baseline,
      Target target,
      String note) {
    this(name, dataset, metric, meterstore, baselineName, baseline, target, note, false);
  }

  /** MeterStore / baseline; NaN when the baseline is 0. */
  public double ratio() {
    return baseline == 0 ? Double.NaN : meterstore / baseline;
  }

  /** Whether the target is met; null without a target; false for a wrong answer. */
  public Boolean met() {
    if (wrongAnswer) {
      return false;
    }
    return target == null ? null : target.met(meterstore, ratio());
  }
}
