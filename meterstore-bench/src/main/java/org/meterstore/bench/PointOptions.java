package org.meterstore.bench;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * How the {@code point} group (benchmark 11) runs: its data set's size and how long each side is
 * measured; parsed once from system properties, with the profile's defaults for the keys not set.
 *
 * @param locations market locations of the data set ({@code bench.point.locations}; quick 300, full
 *     1,000)
 * @param firstDay the data set's first balancing day (quick 2026-01-01, full 2025-03-01); the last
 *     is always 2026-03-19, the day before {@link #END}
 * @param warmUpSeconds seconds each run executes before it is measured ({@code bench.point.warmup};
 *     quick 1, full 2)
 * @param seconds seconds each run is measured, per side, question and thread count ({@code
 *     bench.point.seconds}; quick 2, full 10)
 * @param threads the client thread counts, ascending ({@code bench.point.threads}, comma-separated;
 *     default 1, 4, 16)
 * @param questions the questions asked, in this order ({@code bench.point.questions}, their names
 *     comma-separated, for example {@code COLD_MONTH} to profile one; default all)
 */
record PointOptions(
    int locations,
    LocalDate firstDay,
    int warmUpSeconds,
    int seconds,
    List<Integer> threads,
    List<PointQuestion> questions) {

  /** The balancing day after the data set's last (Europe/Berlin). */
  static final LocalDate END = LocalDate.of(2026, 3, 20);

  /** The thread counts issue #32 names. */
  static final List<Integer> DEFAULT_THREADS = List.of(1, 4, 16);

  /** Checks the ranges. */
  PointOptions {
    if (locations < 1 || warmUpSeconds < 1 || seconds < 1 || !firstDay.isBefore(END)) {
      throw new IllegalArgumentException("Invalid point options: sizes and seconds are positive");
    }
    threads = List.copyOf(threads);
    questions = List.copyOf(questions);
    if (questions.isEmpty()) {
      throw new IllegalArgumentException("Invalid point options: no question to ask");
    }
  }

  /** The options of {@code profile} with what {@code properties} set. */
  static PointOptions of(Profile profile, Properties properties) {
    boolean full = profile.name().equals("full");
    return new PointOptions(
        Profile.positive(properties, "bench.point.locations", full ? 1_000 : 300),
        full ? LocalDate.of(2025, 3, 1) : LocalDate.of(2026, 1, 1),
        Profile.positive(properties, "bench.point.warmup", full ? 2 : 1),
        Profile.positive(properties, "bench.point.seconds", full ? 10 : 2),
        threads(properties.getProperty("bench.point.threads")),
        questions(properties.getProperty("bench.point.questions")));
  }

  /** {@code text} as question names; every question when null. */
  static List<PointQuestion> questions(String text) {
    if (text == null) {
      return List.of(PointQuestion.values());
    }
    List<PointQuestion> asked = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      try {
        asked.add(PointQuestion.valueOf(part.strip()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "Invalid bench.point.questions: "
                + text
                + " (names of "
                + List.of(PointQuestion.values())
                + ", comma-separated)",
            e);
      }
    }
    return asked;
  }

  /** The balancing days of the data set. */
  int days() {
    return (int) ChronoUnit.DAYS.between(firstDay, END);
  }

  /** {@code text} as ascending, distinct positive thread counts; the default when null. */
  static List<Integer> threads(String text) {
    if (text == null) {
      return DEFAULT_THREADS;
    }
    List<Integer> counts = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      int n;
      try {
        n = Integer.parseInt(part.strip());
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1 || n > 256 || (!counts.isEmpty() && n <= counts.get(counts.size() - 1))) {
        throw new IllegalArgumentException(
            "Invalid bench.point.threads: "
                + text
                + " (ascending thread counts from 1 to 256, comma-separated)");
      }
      counts.add(n);
    }
    return counts;
  }
}
