package org.meterstore.query.internal.cold.aggregate;

import java.math.BigDecimal;
import java.util.Arrays;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Function;

/**
 * The running state of one aggregate call for every group, in arrays by group id: {@code value}
 * (the unscaled sum, or the minimum or maximum in the column's long domain), {@code count} (values
 * counted, summed, or held in {@code value}) and {@code big} (the exact part a long could not hold:
 * a sum's overflow, a decimal minimum or maximum beyond a long). Sums add with {@link
 * Math#addExact} and carry into {@code big} on overflow, so they stay exact.
 */
final class CallState {
  final Function function;
  long[] value = new long[16];
  long[] count = new long[16];
  BigDecimal[] big = new BigDecimal[16];

  CallState(Function function) {
    this.function = function;
  }

  void ensure(int groups) {
    if (groups > value.length) {
      int n = Math.max(groups, value.length * 2);
      value = Arrays.copyOf(value, n);
      count = Arrays.copyOf(count, n);
      big = Arrays.copyOf(big, n);
    }
  }

  void reset(int groups) {
    Arrays.fill(value, 0, Math.min(groups, value.length), 0L);
    Arrays.fill(count, 0, Math.min(groups, count.length), 0L);
    Arrays.fill(big, 0, Math.min(groups, big.length), null);
  }

  /** Adds the long {@code v} to group {@code g}. */
  void add(int g, long v) {
    long c = count[g]++;
    switch (function) {
      case SUM, SUM0 -> {
        long s = value[g];
        long r = s + v;
        if (((s ^ r) & (v ^ r)) < 0) {
          big[g] = plus(big[g], BigDecimal.valueOf(s).add(BigDecimal.valueOf(v)));
          value[g] = 0;
        } else {
          value[g] = r;
        }
      }
      case MIN -> value[g] = c == 0 ? v : Math.min(value[g], v);
      case MAX -> value[g] = c == 0 ? v : Math.max(value[g], v);
      default -> {}
    }
  }

  /** Adds the exact unscaled {@code v}, which a long cannot hold, to group {@code g}. */
  void addBig(int g, BigDecimal unscaled) {
    switch (function) {
      case SUM, SUM0 -> {
        count[g]++;
        big[g] = plus(big[g], unscaled);
      }
      case MIN -> big[g] = big[g] == null || unscaled.compareTo(big[g]) < 0 ? unscaled : big[g];
      case MAX -> big[g] = big[g] == null || unscaled.compareTo(big[g]) > 0 ? unscaled : big[g];
      default -> count[g]++;
    }
  }

  /** Merges group {@code from} of {@code other} into group {@code g}. */
  void merge(int g, CallState other, int from) {
    long c = other.count[from];
    BigDecimal b = other.big[from];
    switch (function) {
      case SUM, SUM0 -> {
        count[g] += c;
        if (c > 0) {
          long s = value[g];
          try {
            value[g] = Math.addExact(s, other.value[from]);
          } catch (ArithmeticException e) {
            big[g] = plus(big[g], BigDecimal.valueOf(s).add(BigDecimal.valueOf(other.value[from])));
            value[g] = 0;
          }
        }
        if (b != null) {
          big[g] = plus(big[g], b);
        }
      }
      case MIN, MAX -> {
        if (c > 0) {
          long v = other.value[from];
          boolean min = function == Function.MIN;
          value[g] = count[g] == 0 ? v : min ? Math.min(value[g], v) : Math.max(value[g], v);
          count[g] += c;
        }
        if (b != null) {
          addBig(g, b);
        }
      }
      default -> count[g] += c;
    }
  }

  private static BigDecimal plus(BigDecimal a, BigDecimal b) {
    return a == null ? b : a.add(b);
  }
}
