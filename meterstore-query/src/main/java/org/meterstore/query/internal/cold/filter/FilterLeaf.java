package org.meterstore.query.internal.cold.filter;

import static org.meterstore.query.internal.cold.filter.BatchFilter.FALSE;
import static org.meterstore.query.internal.cold.filter.BatchFilter.TRUE;
import static org.meterstore.query.internal.cold.filter.BatchFilter.UNKNOWN;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import org.meterstore.api.table.ColumnType;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnVector;
import org.meterstore.cold.scan.IntVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.cold.scan.TextDictionary;
import org.meterstore.cold.scan.TextVector;

/**
 * Comparisons and null tests of one column on vectors. Timestamps compare as epoch milliseconds
 * (the microseconds floored, as Calcite sees them); decimals as unscaled longs when the literal is
 * exact at the column's scale, else as {@code BigDecimal}s.
 */
final class FilterLeaf {
  private FilterLeaf() {}

  static FilterNode isNull(int position, boolean negated) {
    return (batch, sel, n, out) -> {
      ColumnVector v = batch.column(position);
      for (int i = 0; i < n; i++) {
        out[i] = v.isNull(sel[i]) != negated ? TRUE : FALSE;
      }
    };
  }

  static FilterNode compare(
      int position, ColumnType type, int scale, ColdPred.Op op, Object value) {
    if (value == null) {
      return (batch, sel, n, out) -> Arrays.fill(out, 0, n, UNKNOWN);
    }
    switch (type) {
      case TEXT:
        return text(position, op, value.toString());
      case DATE:
        int day = ((Number) value).intValue();
        return (batch, sel, n, out) -> {
          IntVector v = (IntVector) batch.column(position);
          int[] values = v.values();
          for (int i = 0; i < n; i++) {
            int r = sel[i];
            out[i] = v.isNull(r) ? UNKNOWN : BatchFilter.test(op, Integer.compare(values[r], day));
          }
        };
      case TIMESTAMPTZ:
        long millis = ((Number) value).longValue();
        return (batch, sel, n, out) -> {
          LongVector v = (LongVector) batch.column(position);
          long[] values = v.values();
          for (int i = 0; i < n; i++) {
            int r = sel[i];
            out[i] =
                v.isNull(r)
                    ? UNKNOWN
                    : BatchFilter.test(op, Long.compare(Math.floorDiv(values[r], 1000L), millis));
          }
        };
      default:
        return decimal(position, scale, op, BatchFilter.decimal(value));
    }
  }

  private static FilterNode decimal(int position, int scale, ColdPred.Op op, BigDecimal literal) {
    Long unscaled = unscaled(literal, scale);
    return (batch, sel, n, out) -> {
      LongVector v = (LongVector) batch.column(position);
      long[] values = v.values();
      BigDecimal[] big = v.overflow();
      for (int i = 0; i < n; i++) {
        int r = sel[i];
        if (v.isNull(r)) {
          out[i] = UNKNOWN;
        } else if (big != null && big[r] != null) {
          out[i] = BatchFilter.test(op, big[r].compareTo(literal));
        } else if (unscaled != null) {
          out[i] = BatchFilter.test(op, Long.compare(values[r], unscaled));
        } else {
          out[i] = BatchFilter.test(op, BigDecimal.valueOf(values[r], scale).compareTo(literal));
        }
      }
    };
  }

  private static Long unscaled(BigDecimal literal, int scale) {
    try {
      return literal.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue().longValueExact();
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static FilterNode text(int position, ColdPred.Op op, String literal) {
    return new FilterNode() {
      private TextDictionary dictionary;
      private byte[] byId = new byte[0];

      @Override
      public void eval(ColumnBatch batch, int[] sel, int n, byte[] out) {
        TextVector v = (TextVector) batch.column(position);
        if (v.dictionary() != dictionary) {
          dictionary = v.dictionary();
          byId = new byte[0];
        }
        int[] ids = v.ids();
        for (int i = 0; i < n; i++) {
          int r = sel[i];
          if (v.isNull(r)) {
            out[i] = UNKNOWN;
            continue;
          }
          int id = ids[r];
          if (id >= byId.length) {
            byte[] grown = new byte[Math.max(dictionary.size(), id + 1)];
            Arrays.fill(grown, UNKNOWN);
            System.arraycopy(byId, 0, grown, 0, byId.length);
            byId = grown;
          }
          byte b = byId[id];
          if (b == UNKNOWN) {
            b = BatchFilter.test(op, dictionary.value(id).compareTo(literal));
            byId[id] = b;
          }
          out[i] = b;
        }
      }
    };
  }
}
