package org.meterstore.api.table;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;

/**
 * A content digest of a set of rows: how many there are and the sum of their {@code value} column
 * (DESIGN § 6 step 6). The archival job computes it over the source partition and compares it with
 * the digest the cold commit stored, so both sides use {@link #of} on rows in {@link
 * org.meterstore.api.table.StoredRow} form.
 *
 * @param rowCount the number of rows, zero or more
 * @param valueSum the exact sum of the values, scale 6
 */
public record ContentDigest(long rowCount, BigDecimal valueSum) {

  /** The digest of no rows. */
  public static final ContentDigest EMPTY = new ContentDigest(0, BigDecimal.ZERO);

  /** Checks the ranges and normalises the scale. */
  public ContentDigest {
    if (rowCount < 0) {
      throw MeterStoreException.invalid("digest row count", rowCount, "zero or more");
    }
    valueSum = Objects.requireNonNull(valueSum, "valueSum").setScale(6);
  }

  /** The digest of {@code rows}, each in {@code table}'s column order. */
  public static ContentDigest of(TableDefinition table, Iterator<Object[]> rows) {
    Accumulator acc = accumulator(table);
    rows.forEachRemaining(acc::add);
    return acc.digest();
  }

  /** An accumulator for rows of {@code table}; not thread-safe. */
  public static Accumulator accumulator(TableDefinition table) {
    int index = table.columns().stream().map(c -> c.name()).toList().indexOf(valueColumn());
    return new Accumulator(index);
  }

  private static String valueColumn() {
    return StandardColumn.VALUE.columnName();
  }

  /** The digest of this digest's rows and {@code other}'s together. */
  public ContentDigest plus(ContentDigest other) {
    return new ContentDigest(Math.addExact(rowCount, other.rowCount), valueSum.add(other.valueSum));
  }

  /** The summary form, {@code rows=<n>;value-sum=<plain decimal>}. */
  public String toSummaryValue() {
    return "rows=" + rowCount + ";value-sum=" + valueSum.toPlainString();
  }

  /**
   * Parses {@link #toSummaryValue()}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when the text has another form
   */
  public static ContentDigest parse(String text) {
    String[] parts = text == null ? new String[0] : text.split(";");
    if (parts.length != 2 || !parts[0].startsWith("rows=") || !parts[1].startsWith("value-sum=")) {
      throw MeterStoreException.invalid("digest", text, "rows=<n>;value-sum=<decimal>");
    }
    try {
      return new ContentDigest(
          Long.parseLong(parts[0].substring(5)), new BigDecimal(parts[1].substring(10)));
    } catch (NumberFormatException e) {
      throw MeterStoreException.invalid("digest", text, "rows=<n>;value-sum=<decimal>");
    }
  }

  /** Adds rows up one at a time; not thread-safe. */
  public static final class Accumulator {
    private final int valueIndex;
    private long rows;
    private BigDecimal sum = BigDecimal.ZERO;

    private Accumulator(int valueIndex) {
      this.valueIndex = valueIndex;
    }

    /** Adds one row in its table's column order. */
    public void add(Object[] row) {
      rows++;
      sum = sum.add((BigDecimal) row[valueIndex]);
    }

    /** The digest of the rows added so far. */
    public ContentDigest digest() {
      return new ContentDigest(rows, sum);
    }
  }
}
