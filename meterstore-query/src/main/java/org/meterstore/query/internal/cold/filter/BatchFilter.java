package org.meterstore.query.internal.cold.filter;

import java.math.BigDecimal;
import java.util.List;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.query.internal.cold.batch.ScanColumns;

/**
 * {@link ColdPred}s evaluated on column batches with SQL's three-valued logic: a row passes only
 * when every predicate is true. Values come bound (parameters were resolved when the scan opened);
 * a decimal literal is scaled once, and a text comparison is evaluated once per dictionary id, not
 * once per row. Not thread-safe (one per worker).
 */
public final class BatchFilter {
  static final byte FALSE = 0;
  static final byte TRUE = 1;
  static final byte UNKNOWN = 2;

  private final FilterNode[] conjuncts;
  private byte[] scratch = new byte[0];

  public BatchFilter(List<ColdPred> preds, ScanColumns columns) {
    conjuncts = new FilterNode[preds.size()];
    for (int i = 0; i < conjuncts.length; i++) {
      conjuncts[i] = compile(preds.get(i), columns);
    }
  }

  boolean isEmpty() {
    return conjuncts.length == 0;
  }

  /** Keeps in {@code sel[0..n)} the rows every predicate holds for; returns how many. */
  public int apply(ColumnBatch batch, int[] sel, int n) {
    for (FilterNode c : conjuncts) {
      if (n == 0) {
        return 0;
      }
      if (scratch.length < n) {
        scratch = new byte[Math.max(n, 1024)];
      }
      c.eval(batch, sel, n, scratch);
      int kept = 0;
      for (int i = 0; i < n; i++) {
        if (scratch[i] == TRUE) {
          sel[kept++] = sel[i];
        }
      }
      n = kept;
    }
    return n;
  }

  /** Sets {@code sel[0..n)} to every row of a batch, the selection {@link #apply} starts from. */
  public static int[] identity(int[] sel, int n) {
    for (int i = 0; i < n; i++) {
      sel[i] = i;
    }
    return sel;
  }

  private static FilterNode compile(ColdPred p, ScanColumns columns) {
    if (p instanceof ColdPred.Cmp c) {
      int position = columns.position(c.column());
      Object value = c.value();
      return FilterLeaf.compare(
          position, columns.types[position], columns.scale(position), c.op(), value);
    }
    if (p instanceof ColdPred.IsNull n) {
      return FilterLeaf.isNull(columns.position(n.column()), n.negated());
    }
    if (p instanceof ColdPred.Not n) {
      FilterNode inner = compile(n.part(), columns);
      return (batch, sel, count, out) -> {
        inner.eval(batch, sel, count, out);
        for (int i = 0; i < count; i++) {
          out[i] = out[i] == UNKNOWN ? UNKNOWN : (byte) (1 - out[i]);
        }
      };
    }
    boolean and = p instanceof ColdPred.And;
    List<ColdPred> parts = and ? ((ColdPred.And) p).parts() : ((ColdPred.Or) p).parts();
    FilterNode[] nodes = parts.stream().map(x -> compile(x, columns)).toArray(FilterNode[]::new);
    return new FilterNode() {
      private byte[] part = new byte[0];

      @Override
      public void eval(ColumnBatch batch, int[] sel, int count, byte[] out) {
        java.util.Arrays.fill(out, 0, count, and ? TRUE : FALSE);
        if (part.length < count) {
          part = new byte[count];
        }
        byte decisive = and ? FALSE : TRUE;
        for (FilterNode node : nodes) {
          node.eval(batch, sel, count, part);
          for (int i = 0; i < count; i++) {
            if (out[i] == decisive) {
              continue;
            }
            if (part[i] == decisive) {
              out[i] = decisive;
            } else if (part[i] == UNKNOWN) {
              out[i] = UNKNOWN;
            }
          }
        }
      }
    };
  }

  /** Whether {@code cmp} (a comparison's sign) satisfies {@code op}. */
  static byte test(ColdPred.Op op, int cmp) {
    boolean r =
        switch (op) {
          case EQ -> cmp == 0;
          case NE -> cmp != 0;
          case LT -> cmp < 0;
          case LE -> cmp <= 0;
          case GT -> cmp > 0;
          case GE -> cmp >= 0;
        };
    return r ? TRUE : FALSE;
  }

  static BigDecimal decimal(Object value) {
    return value instanceof BigDecimal b ? b : new BigDecimal(value.toString());
  }
}
