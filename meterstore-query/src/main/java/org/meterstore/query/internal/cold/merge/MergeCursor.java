package org.meterstore.query.internal.cold.merge;

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
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.query.internal.cold.filter.BatchFilter;

/**
 * The current row of one sorted file in a month's merge: rows that pass the pre-resolution
 * predicates, in the file's {@code (malo_id, from)} order. Text is translated into the merge's
 * {@link RowBuffer} dictionaries once per source id. A file whose rows do not ascend fails the scan
 * ({@code INVARIANT_VIOLATED}): its declared sort order is wrong, and merging it would be too.
 */
public final class MergeCursor {
  private final ColumnBatchReader reader;
  private final BatchFilter before;
  private final ScanColumns columns;
  private final RowBuffer out;
  private final String file;
  private final TextDictionary[] mappedFrom;
  private final int[][] mapped;
  private final int[] lastSource;
  private final int[] lastId;
  private ColumnBatch batch;
  private static final byte TEXT = 0;
  private static final byte INT = 1;
  private static final byte LONG = 2;
  private final byte[] kinds;
  private final int[][] ints;
  private final long[][] longs;
  private final boolean[][] nulls;
  private final BigDecimal[][] bigs;
  private int[] sel = new int[0];
  private int n;
  private int i;
  private long rows;
  private int maloId = -1;
  private String malo;
  private long from;

  public MergeCursor(
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
    int width = columns.types.length;
    this.mappedFrom = new TextDictionary[width];
    this.mapped = new int[width][];
    this.lastSource = new int[width];
    this.lastId = new int[width];
    java.util.Arrays.fill(lastSource, -1);
    this.kinds = new byte[width];
    for (int c = 0; c < width; c++) {
      kinds[c] =
          switch (columns.types[c]) {
            case TEXT -> TEXT;
            case DATE -> INT;
            default -> LONG;
          };
    }
    this.ints = new int[width][];
    this.longs = new long[width][];
    this.nulls = new boolean[width][];
    this.bigs = new BigDecimal[width][];
  }

  /** Moves to the first qualifying row at or after the current position; false at the end. */
  public boolean load() {
    while (batch == null || i >= n) {
      batch = reader.next();
      if (batch == null) {
        return false;
      }
      rows += batch.size();
      if (sel.length < batch.size()) {
        sel = new int[batch.size()];
      }
      n = before.apply(batch, BatchFilter.identity(sel, batch.size()), batch.size());
      i = 0;
      bind(batch);
    }
    int row = sel[i];
    int id = mapId(columns.malo, ints[columns.malo][row]);
    long f = longs[columns.from][row];
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

  public int maloId() {
    return maloId;
  }

  public String malo() {
    return malo;
  }

  public long from() {
    return from;
  }

  public long rowsRead() {
    return rows;
  }

  public long rowsDecoded() {
    return reader.rowsDecoded();
  }

  /** Copies the current row into {@code out} and moves past it. */
  public void copyAndAdvance() {
    int row = sel[i++];
    int target = out.addUnset();
    for (int c = 0; c < kinds.length; c++) {
      boolean[] nl = nulls[c];
      boolean isNull = nl != null && nl[row];
      switch (kinds[c]) {
        case TEXT -> out.putText(c, target, isNull, isNull ? 0 : mapId(c, ints[c][row]));
        case INT -> out.putInt(c, target, isNull, ints[c][row]);
        default -> {
          BigDecimal[] big = bigs[c];
          out.putLong(c, target, isNull, longs[c][row], big == null ? null : big[row]);
        }
      }
    }
  }

  /** Takes the arrays of a new batch; a new row group's dictionary restarts the id map. */
  private void bind(ColumnBatch b) {
    for (int c = 0; c < kinds.length; c++) {
      ColumnVector v = b.column(c);
      bigs[c] = null;
      if (v instanceof TextVector t) {
        ints[c] = t.ids();
        nulls[c] = t.nulls();
        if (t.dictionary() != mappedFrom[c]) {
          mappedFrom[c] = t.dictionary();
          lastSource[c] = -1;
          mapped[c] = new int[Math.max(t.dictionary().size(), 16)];
          java.util.Arrays.fill(mapped[c], -1);
        }
      } else if (v instanceof IntVector iv) {
        ints[c] = iv.values();
        nulls[c] = iv.nulls();
      } else {
        LongVector lv = (LongVector) v;
        longs[c] = lv.values();
        nulls[c] = lv.nulls();
        bigs[c] = lv.overflow();
      }
    }
  }

  /** The merge's id of source id {@code source} of text column {@code column}. */
  private int mapId(int column, int source) {
    if (source == lastSource[column]) {
      return lastId[column]; // rows are sorted: text repeats from row to row
    }
    int[] ids = mapped[column];
    if (source >= ids.length) {
      int old = ids.length;
      ids = java.util.Arrays.copyOf(ids, Math.max(source + 1, old * 2));
      java.util.Arrays.fill(ids, old, ids.length, -1);
      mapped[column] = ids;
    }
    int id = ids[source];
    if (id < 0) {
      id = out.dictionary(column).intern(mappedFrom[column].value(source));
      ids[source] = id;
    }
    lastSource[column] = source;
    lastId[column] = id;
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

  public void close() {
    reader.close();
  }
}
