package org.meterstore.query.internal.cold.merge;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.meterstore.api.table.ColumnType;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnVector;
import org.meterstore.cold.scan.IntVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.cold.scan.TextVector;
import org.meterstore.query.internal.cold.batch.ScanColumns;

/**
 * A growable batch of the scan's columns that rows are copied into: the rows of one month's files
 * merged for resolution, or records read through the generic path. Text is interned into one {@link
 * InternDictionary} per column that outlives {@link #clear()}, so ids stay comparable across the
 * batches of one unit. Not thread-safe.
 */
public final class RowBuffer {
  private final ScanColumns columns;
  private final InternDictionary[] dictionaries;
  private long[][] longs;
  private int[][] ints;
  private boolean[][] nulls;
  private BigDecimal[][] overflow;
  private final boolean[] anyNull;
  private final boolean[] anyOverflow;
  private int capacity;
  private int size;

  public RowBuffer(ScanColumns columns, int capacity) {
    this.columns = columns;
    int n = columns.types.length;
    this.dictionaries = new InternDictionary[n];
    for (int c = 0; c < n; c++) {
      if (columns.types[c] == ColumnType.TEXT) {
        dictionaries[c] = new InternDictionary();
      }
    }
    this.anyNull = new boolean[n];
    this.anyOverflow = new boolean[n];
    allocate(Math.max(capacity, 16));
  }

  private void allocate(int newCapacity) {
    int n = columns.types.length;
    long[][] l = new long[n][];
    int[][] i = new int[n][];
    boolean[][] nl = new boolean[n][];
    BigDecimal[][] o = new BigDecimal[n][];
    for (int c = 0; c < n; c++) {
      ColumnType t = columns.types[c];
      if (t == ColumnType.TEXT || t == ColumnType.DATE) {
        i[c] = ints == null ? new int[newCapacity] : Arrays.copyOf(ints[c], newCapacity);
      } else {
        l[c] = longs == null ? new long[newCapacity] : Arrays.copyOf(longs[c], newCapacity);
        o[c] =
            overflow == null
                ? new BigDecimal[newCapacity]
                : Arrays.copyOf(overflow[c], newCapacity);
      }
      nl[c] = nulls == null ? new boolean[newCapacity] : Arrays.copyOf(nulls[c], newCapacity);
    }
    longs = l;
    ints = i;
    nulls = nl;
    overflow = o;
    capacity = newCapacity;
  }

  public int size() {
    return size;
  }

  /** Adds a row (all values unset, not null) and returns its index. */
  public int add() {
    if (size == capacity) {
      allocate(capacity * 2);
    }
    int row = size++;
    for (int c = 0; c < nulls.length; c++) {
      nulls[c][row] = false;
      if (overflow[c] != null) {
        overflow[c][row] = null;
      }
    }
    return row;
  }

  /** Adds a row whose every column the caller sets with the {@code put} methods. */
  int addUnset() {
    if (size == capacity) {
      allocate(capacity * 2);
    }
    return size++;
  }

  void putText(int column, int row, boolean isNull, int id) {
    nulls[column][row] = isNull;
    anyNull[column] |= isNull;
    ints[column][row] = id;
  }

  void putInt(int column, int row, boolean isNull, int value) {
    nulls[column][row] = isNull;
    anyNull[column] |= isNull;
    ints[column][row] = value;
  }

  void putLong(int column, int row, boolean isNull, long value, BigDecimal big) {
    nulls[column][row] = isNull;
    anyNull[column] |= isNull;
    longs[column][row] = value;
    overflow[column][row] = big;
    anyOverflow[column] |= big != null;
  }

  public void setNull(int column, int row) {
    nulls[column][row] = true;
    anyNull[column] = true;
  }

  public void setLong(int column, int row, long value) {
    longs[column][row] = value;
  }

  public void setBig(int column, int row, BigDecimal value) {
    overflow[column][row] = value;
    anyOverflow[column] = true;
  }

  public void setInt(int column, int row, int value) {
    ints[column][row] = value;
  }

  public void setText(int column, int row, String value) {
    ints[column][row] = dictionaries[column].intern(value);
  }

  /** Sets text by an id of this buffer's dictionary of {@code column}. */
  void setTextId(int column, int row, int id) {
    ints[column][row] = id;
  }

  InternDictionary dictionary(int column) {
    return dictionaries[column];
  }

  public long getLong(int column, int row) {
    return longs[column][row];
  }

  public int getInt(int column, int row) {
    return ints[column][row];
  }

  public boolean isNull(int column, int row) {
    return nulls[column][row];
  }

  public BigDecimal getBig(int column, int row) {
    return overflow[column] == null ? null : overflow[column][row];
  }

  /** The rows as a batch (valid until the buffer changes); requires at least one row. */
  public ColumnBatch batch() {
    List<ColumnVector> vectors = new ArrayList<>(columns.types.length);
    for (int c = 0; c < columns.types.length; c++) {
      boolean[] n = anyNull[c] ? nulls[c] : null;
      switch (columns.types[c]) {
        case TEXT -> vectors.add(new TextVector(ints[c], n, dictionaries[c]));
        case DATE -> vectors.add(new IntVector(ints[c], n));
        default -> vectors.add(new LongVector(longs[c], n, anyOverflow[c] ? overflow[c] : null));
      }
    }
    return new ColumnBatch(size, vectors);
  }

  /** Forgets the rows; keeps the dictionaries. */
  public void clear() {
    size = 0;
    Arrays.fill(anyNull, false);
    Arrays.fill(anyOverflow, false);
  }
}
