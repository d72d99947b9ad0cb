package org.meterstore.query.internal.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code from} range errs only wider: for random predicate trees and random instants, every
 * instant the predicate accepts lies in the extracted range.
 */
class FromRangesTest {
  private static final int FROM = 4;
  private static final long BASE = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

  @Test
  void conjunctionsIntersectAndDisjunctionsSpan() {
    Pred ge = cmp(Pred.Op.GE, 10);
    Pred lt = cmp(Pred.Op.LT, 20);
    assertThat(FromRanges.of(List.of(ge, lt), FROM, null)).isEqualTo(new FromRange(at(10), at(20)));
    Pred or = new Pred.Or(List.of(cmp(Pred.Op.LT, 5), cmp(Pred.Op.GE, 30)));
    assertThat(FromRanges.of(List.of(or), FROM, null)).isEqualTo(FromRange.ALL);
    assertThat(FromRanges.of(List.of(new Pred.Not(ge)), FROM, null)).isEqualTo(FromRange.ALL);
    assertThat(
            FromRanges.of(List.of(new Pred.Cmp(FROM, Pred.Op.GE, new Pred.Param(0))), FROM, null))
        .isEqualTo(FromRange.ALL);
  }

  static Stream<Long> seeds() {
    return Stream.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void everyAcceptedInstantLiesInTheRange(long seed) {
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      Pred p = tree(random, 3);
      FromRange range = FromRanges.of(List.of(p), FROM, null);
      for (int t = -2; t < 42; t++) {
        if (Boolean.TRUE.equals(eval(p, BASE + t * 1000L))) {
          assertThat(!at(t).isBefore(range.lower()) && at(t).isBefore(range.upper()))
              .as("%s accepts %s but range is %s", p, at(t), range)
              .isTrue();
        }
      }
    }
  }

  private static Pred tree(Random r, int depth) {
    int kind = depth == 0 ? 0 : r.nextInt(4);
    switch (kind) {
      case 1:
        return new Pred.And(List.of(tree(r, depth - 1), tree(r, depth - 1)));
      case 2:
        return new Pred.Or(List.of(tree(r, depth - 1), tree(r, depth - 1)));
      case 3:
        return new Pred.Not(tree(r, depth - 1));
      default:
        return cmp(Pred.Op.values()[r.nextInt(Pred.Op.values().length)], r.nextInt(40));
    }
  }

  private static Boolean eval(Pred p, long millis) {
    if (p instanceof Pred.Cmp c) {
      long v = (Long) ((Pred.Literal) c.value()).internal();
      int cmp = Long.compare(millis, v);
      switch (c.op()) {
        case EQ:
          return cmp == 0;
        case NE:
          return cmp != 0;
        case LT:
          return cmp < 0;
        case LE:
          return cmp <= 0;
        case GT:
          return cmp > 0;
        default:
          return cmp >= 0;
      }
    }
    if (p instanceof Pred.Not n) {
      return !eval(n.part(), millis);
    }
    boolean and = p instanceof Pred.And;
    List<Pred> parts = and ? ((Pred.And) p).parts() : ((Pred.Or) p).parts();
    boolean result = and;
    for (Pred part : parts) {
      result = and ? result && eval(part, millis) : result || eval(part, millis);
    }
    return result;
  }

  private static Pred cmp(Pred.Op op, int seconds) {
    return new Pred.Cmp(FROM, op, new Pred.Literal(BASE + seconds * 1000L));
  }

  private static Instant at(int seconds) {
    return Instant.ofEpochMilli(BASE + seconds * 1000L);
  }
}
