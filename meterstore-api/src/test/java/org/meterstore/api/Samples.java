package org.meterstore.api;

import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Reproducible random samples for property tests: a fixed seed per property, so a failure names the
 * sample and repeats on every run. Properties whose domain is small are checked exhaustively
 * instead.
 */
public final class Samples {
  private Samples() {}

  /** {@code count} values drawn by {@code draw} from a random source seeded with {@code seed}. */
  public static <T> Stream<T> of(long seed, int count, Function<Random, T> draw) {
    Random random = new Random(seed);
    return Stream.generate(() -> draw.apply(random)).limit(count);
  }

  /** A uniformly chosen element of {@code values}. */
  public static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  /** A string of {@code length} characters drawn from {@code alphabet}. */
  public static String string(Random random, String alphabet, int length) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }
}
