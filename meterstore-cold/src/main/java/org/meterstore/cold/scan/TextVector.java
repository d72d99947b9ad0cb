package org.meterstore.cold.scan;

/**
 * A vector of text as ids into a {@link TextDictionary}, so that a consumer can group and compare
 * by id and turn an id into a {@code String} once. Null rows have an unspecified id.
 */
public final class TextVector implements ColumnVector {
  private final int[] ids;
  private final boolean[] nulls;
  private final TextDictionary dictionary;

  /**
   * @param ids the dictionary ids, at least as many as the batch has rows
   * @param nulls the null flags, or null when no row is null
   * @param dictionary what the ids stand for
   */
  public TextVector(int[] ids, boolean[] nulls, TextDictionary dictionary) {
    this.ids = ids;
    this.nulls = nulls;
    this.dictionary = dictionary;
  }

  /** The ids, by row. */
  public int[] ids() {
    return ids;
  }

  /** The null flags by row, or null when no row is null. */
  public boolean[] nulls() {
    return nulls;
  }

  /** The dictionary the ids index. */
  public TextDictionary dictionary() {
    return dictionary;
  }

  /** The string of row {@code row}, or null when the row is null. */
  public String value(int row) {
    return isNull(row) ? null : dictionary.value(ids[row]);
  }

  @Override
  public boolean isNull(int row) {
    return nulls != null && nulls[row];
  }

  @Override
  public boolean mayHaveNulls() {
    return nulls != null;
  }
}
