package org.meterstore.cold.internal.layout;

import org.apache.iceberg.StructLike;

/**
 * A row of a table's schema in Iceberg's internal representation (see {@link
 * RowConverter#toInternal}); the values array is the row's own. Not thread-safe.
 */
public final class InternalRow implements StructLike {
  private final Object[] values;

  InternalRow(Object[] values) {
    this.values = values;
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public <T> T get(int pos, Class<T> javaClass) {
    return javaClass.cast(values[pos]);
  }

  /** The value at {@code pos}, uncast. */
  public Object get(int pos) {
    return values[pos];
  }

  @Override
  public <T> void set(int pos, T value) {
    values[pos] = value;
  }
}
