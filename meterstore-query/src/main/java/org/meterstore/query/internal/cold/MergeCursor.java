package org.meterstore.query.internal.cold;

import java.math.BigDecimal;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnBatchReader;
import org.meterstore.cold.scan.ColumnVector;
import org.meterstore.cold.scan.IntVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.cold.scan.TextDictionary;
import org.meterstore.cold.scan.TextVector;

/**
 * The current row of one sorted file in a month's merge: rows that pass the pre-resolution
 * predicates, in the file's {@code (malo_id, from)} order. Text is translated into the merge's
 * {@link RowBuffer} dictionaries once per source id. A file whose rows do not ascend fails the scan
 * ({@code INVARIANT_VIOLATED}): its declared sort order is wrong, and merging it would be too.
 */
final class MergeCursor {
  private final ColumnBatchReader reader;
  private final BatchFilter before;
  private final ScanColumns columns;
  private final RowBuffer out;
  private final String file;
  private final TextDictionary[] mappedFrom;
  private final int[][] mapped;
  private ColumnBatch batch;
  private ColumnVector[] vectors;
  private TextVector maloVector;
  private long[] fromValues;
  private int[] sel = new int[0];
  private int n;
  private int i;
  private long rows;
  private int maloId = -1;
  private String malo;
  private long from;

  MergeCursor(
      ColumnBatchReader reader,
      BatchFilter before,
      ScanColumns columns,
      RowBuffer out,
      String file) {
    this.reader = reader;
    this.before = before;
    this.columns = columns;
    this.out = out;
    this.file = file;
    this.mappedFrom = new TextDictionary[columns.types.length];
    this.mapped = new int[columns.types.length][];
  }

  /** Moves to the first qualifying row at or after the current position; false at the end. */
  boolean load() {
    while (batch == null || i >= n) {
      batch = reader.next();
      if (batch == null) {
        return false;
      }
      rows += batch.size();
      if (sel.length < batch.size()) {
        sel = new int[batch.size()];
      }
      n = before.apply(batch, UnitContext.identity(sel, batch.size()), batch.size());
      i = 0;
      vectors = batch.columns().toArray(new ColumnVector[0]);
      maloVector = (TextVector) vectors[columns.malo];
      fromValues = ((LongVector) vectors[columns.from]).values();
    }
    int row = sel[i];
    int id = map(columns.malo, maloVector, row);
    long f = fromValues[row];
    if (id != maloId) {
      String s = out.dictionary(columns.malo).value(id);
      if (malo != null && s.compareTo(malo) < 0) {
        throw unsorted();
      }
      malo = s;
      maloId = id;
    } else if (f < from) {
      throw unsorted();
    }
    from = f;
    return true;
  }

  int maloId() {
    return maloId;
  }

  String malo() {
    return malo;
  }

  long from() {
    return from;
  }

  long rowsRead() {
    return rows;
  }

  /** Copies the current row into {@code out} and moves past it. */
  void copyAndAdvance() {
    int row = sel[i++];
    int target = out.add();
    for (int c = 0; c < vectors.length; c++) {
      ColumnVector v = vectors[c];
      if (v instanceof TextVector t) {
        if (t.nulls() != null && t.nulls()[row]) {
          out.setNull(c, target);
        } else {
          out.setTextId(c, target, map(c, t, row));
        }
      } else if (v instanceof LongVector lv) {
        BigDecimal[] big = lv.overflow();
        if (lv.nulls() != null && lv.nulls()[row]) {
          out.setNull(c, target);
        } else if (big != null && big[row] != null) {
          out.setBig(c, target, big[row]);
        } else {
          out.setLong(c, target, lv.values()[row]);
        }
      } else {
        IntVector iv = (IntVector) v;
        if (iv.nulls() != null && iv.nulls()[row]) {
          out.setNull(c, target);
        } else {
          out.setInt(c, target, iv.values()[row]);
        }
      }
    }
  }

  private int map(int column, TextVector v, int row) {
    TextDictionary d = v.dictionary();
    int[] ids = mapped[column];
    if (d != mappedFrom[column]) {
      mappedFrom[column] = d;
      ids = new int[Math.max(d.size(), 16)];
      java.util.Arrays.fill(ids, -1);
      mapped[column] = ids;
    }
    int source = v.ids()[row];
    if (source >= ids.length) {
      int old = ids.length;
      ids = java.util.Arrays.copyOf(ids, Math.max(source + 1, old * 2));
      java.util.Arrays.fill(ids, old, ids.length, -1);
      mapped[column] = ids;
    }
    int id = ids[source];
    if (id < 0) {
      id = out.dictionary(column).intern(d.value(source));
      ids[source] = id;
    }
    return id;
  }

  private MeterStoreException unsorted() {
    return new MeterStoreException(
        ErrorKind.INVARIANT_VIOLATED,
        "Cannot resolve versions of table "
            + columns.table.name()
            + ": data file "
            + file
            + " declares the sort order (malo_id, from) but its rows do not ascend");
  }

  void close() {
    reader.close();
  }
}
