package org.meterstore.maintenance.testing;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.workload.ReferenceModel;

/**
 * A day's row count and exact value sum: what the tests compare between both tiers ({@link
 * TwoTiers#tiers}) and the reference model ({@link #expected}). Equal when the counts are equal and
 * the sums compare equal (scale is ignored).
 */
public record Tally(long rows, BigDecimal sum) {
  /** The {@code from} column in the api's row format. */
  static final int FROM = 4;

  /** The {@code value} column in the api's row format. */
  static final int VALUE = 6;

  /** This tally plus {@code other}. */
  public Tally plus(Tally other) {
    return new Tally(rows + other.rows, sum.add(other.sum));
  }

  /** Rows and value sums per UTC day of {@code from} of every stored version in the model. */
  public static Map<LocalDate, Tally> expected(TableDefinition table, ReferenceModel model) {
    Map<LocalDate, Tally> days = new TreeMap<>();
    for (StoredReading s : model.versions()) {
      add(days, StoredRow.of(table, s));
    }
    return days;
  }

  /** Adds one row in the api's row format to the tally of its UTC day of {@code from}. */
  static void add(Map<LocalDate, Tally> days, Object[] row) {
    add(days, (Instant) row[FROM], (BigDecimal) row[VALUE]);
  }

  static void add(Map<LocalDate, Tally> days, Instant from, BigDecimal value) {
    days.merge(LocalDate.ofInstant(from, ZoneOffset.UTC), new Tally(1, value), Tally::plus);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tally t && t.rows == rows && t.sum.compareTo(sum) == 0;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rows) * 31 + sum.stripTrailingZeros().hashCode();
  }
}
