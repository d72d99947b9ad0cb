package org.meterstore.query.internal.cold.filter;

import org.meterstore.cold.scan.ColumnBatch;

/** One compiled predicate: writes TRUE, FALSE or UNKNOWN for each selected row. */
@FunctionalInterface
interface FilterNode {
  /** {@code out[i]} for the row {@code sel[i]}, {@code i < n}. */
  void eval(ColumnBatch batch, int[] sel, int n, byte[] out);
}
