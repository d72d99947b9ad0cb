package org.meterstore.bench;

import java.util.Locale;
import java.util.Properties;

/**
 * The sizes of one run. {@code quick} stays under five minutes on two shared cores; {@code full} is
 * the scale issue #9 names (1,000 meters for ingest, ~5 M rows per archival window, a year of 1,000
 * market locations for the aggregate). The system properties {@code bench.ingest.meters} and {@code
 * bench.archival.meters} override the profile's sizes (see {@link #withOverrides}).
 *
 * @param name {@code quick} or {@code full}
 * @param ingestMeters meters whose 96-reading day batches the ingest benchmark writes
 * @param archivalMeters meters of the one archival window (about 80 rows each with gas and
 *     corrections)
 * @param yearMeters market locations of the year-long data set
 * @param hotMeters of those, the ones with a month in the hot tier
 * @param latencyBatches batches timed per latency phase
 * @param queryRuns timed repetitions per query (the median is reported), after one warm-up
 * @param elidedMeters market locations of the single-version cold table that the elided cold scan
 *     reads (the first {@code elidedMeters} of the year data set; at most {@code yearMeters})
 * @param monthRuns timed runs of one location's month across W (p50 and p95 are reported), and
 *     preparations per planning line
 * @param seed the data set seed
 */
public record Profile(
    String name,
    int ingestMeters,
    int archivalMeters,
    int yearMeters,
    int hotMeters,
    int latencyBatches,
    int queryRuns,
    int elidedMeters,
    int monthRuns,
    long seed) {

  /** Checks that the elided table is a subset of the year's locations. */
  public Profile {
    if (elidedMeters < 1 || elidedMeters > yearMeters) {
      throw new IllegalArgumentException(
          "Invalid elidedMeters: " + elidedMeters + " (1.." + yearMeters + ", the year's)");
    }
  }

  /** Under five minutes on two shared cores. */
  public static final Profile QUICK =
      new Profile("quick", 100, 1_000, 10, 2, 60, 3, 10, 20, 20261130L);

  /** The sizes of issue #9. */
  public static final Profile FULL =
      new Profile("full", 1_000, 55_000, 1_000, 25, 1_000, 5, 250, 50, 20261130L);

  /** The profile named {@code name}. */
  public static Profile named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "quick" -> QUICK;
      case "full" -> FULL;
      default -> throw new IllegalArgumentException("Invalid profile: " + name + " (quick|full)");
    };
  }

  /**
   * This profile with the sizes {@code properties} set: {@code bench.ingest.meters} and {@code
   * bench.archival.meters} (positive integers; absent keeps the profile's). For a larger or smaller
   * archival window than the profile's, or a tiny smoke run.
   */
  public Profile withOverrides(Properties properties) {
    return new Profile(
        name,
        positive(properties, "bench.ingest.meters", ingestMeters),
        positive(properties, "bench.archival.meters", archivalMeters),
        yearMeters,
        hotMeters,
        latencyBatches,
        queryRuns,
        elidedMeters,
        monthRuns,
        seed);
  }

  /** The positive integer property {@code key}, or {@code fallback} when it is not set. */
  static int positive(Properties properties, String key, int fallback) {
    String text = properties.getProperty(key);
    if (text == null) {
      return fallback;
    }
    int value;
    try {
      value = Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid " + key + ": " + text + " (a positive integer)");
    }
    if (value < 1) {
      throw new IllegalArgumentException("Invalid " + key + ": " + text + " (a positive integer)");
    }
    return value;
  }
}
