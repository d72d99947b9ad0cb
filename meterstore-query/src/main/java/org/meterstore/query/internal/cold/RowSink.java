package org.meterstore.query.internal.cold;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnVector;
import org.meterstore.cold.scan.IntVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.cold.scan.TextVector;
import org.meterstore.query.internal.cold.batch.BatchSink;
import org.meterstore.query.internal.cold.batch.ScanColumns;

/**
 * Turns qualifying rows into full-width {@code Object[]}s of Calcite internal values for the
 * fallback path: text {@code String}, timestamps epoch milliseconds ({@code Long}, microseconds
 * floored), dates epoch days ({@code Integer}), decimals {@code BigDecimal} at the column's scale.
 * Only the requested columns are set.
 */
final class RowSink implements BatchSink {
  private final ScanColumns columns;
  private final int[] wanted;
  private List<Object[]> rows = new ArrayList<>();

  RowSink(ScanColumns columns, int[] storageColumns) {
    this.columns = columns;
    this.wanted = storageColumns.clone();
  }

  @Override
  public void accept(ColumnBatch batch, int[] sel, int n) {
    for (int i = 0; i < n; i++) {
      int row = sel[i];
      Object[] out = new Object[columns.width];
      for (int s : wanted) {
        int p = columns.position(s);
        out[s] = value(batch.column(p), row, columns.scale(p));
      }
      rows.add(out);
    }
  }

  /** The rows gathered since the last call. */
  List<Object[]> take() {
    List<Object[]> out = rows;
    rows = new ArrayList<>();
    return out;
  }

  static Object value(ColumnVector v, int row, int scale) {
    if (v.isNull(row)) {
      return null;
    }
    if (v instanceof TextVector t) {
      return t.dictionary().value(t.ids()[row]);
    }
    if (v instanceof IntVector i) {
      return i.values()[row];
    }
    LongVector l = (LongVector) v;
    BigDecimal[] big = l.overflow();
    if (big != null && big[row] != null) {
      return big[row];
    }
    return scale < 0
        ? (Object) Math.floorDiv(l.values()[row], 1000L)
        : BigDecimal.valueOf(l.values()[row], scale);
  }
}
