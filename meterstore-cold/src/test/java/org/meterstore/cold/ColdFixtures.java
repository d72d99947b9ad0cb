package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.testing.TestDatabase;

/** Readings, rows and stores for the cold tier's tests. */
final class ColdFixtures {
  static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  static final Instant DAY2 = Instant.parse("2026-01-02T00:00:00Z");
  static final Instant DAY3 = Instant.parse("2026-01-03T00:00:00Z");
  static final Instant NOW = Instant.parse("2026-03-01T08:00:00Z");
  static final String OPERATOR = "9900000000003";
  static final CommitPolicy FAST = new CommitPolicy(3, Duration.ZERO, Duration.ofMillis(5));

  private ColdFixtures() {}

  /** A JDBC-catalog config on the test database with a warehouse under {@code dir}. */
  static ColdConfig jdbc(TestDatabase db, Path dir) {
    return ColdConfig.jdbc(db.jdbcUrl(), db.user(), db.password(), dir.toUri().toString())
        .withCommitPolicy(FAST);
  }

  /** The {@code i}-th valid MaLo id (BDEW check digit). */
  static String malo(int i) {
    String base = String.format("1%09d", i);
    int sum = 0;
    for (int k = 0; k < 10; k++) {
      int d = base.charAt(k) - '0';
      sum += (k % 2 == 0) ? d : 2 * d;
    }
    return base + (10 - sum % 10) % 10;
  }

  /** A quarter-hour STROM reading of {@code malo} from {@code from}. */
  static Reading reading(String malo, Instant from, String value, String version) {
    return Reading.builder()
        .malo(malo)
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(15)))
        .value(value)
        .version(version)
        .operator(OPERATOR)
        .build();
  }

  static StoredReading stored(String malo, Instant from, String value, String version) {
    return StoredReading.accept(reading(malo, from, value, version), NOW);
  }

  /**
   * Rows of {@code malos} meters with quarter-hours every {@code stepMinutes} in {@code [from,
   * to)}, emitted in a scrambled order (newest first, meters interleaved) so sorting is exercised.
   */
  static List<Object[]> rows(
      TableDefinition table, int malos, Instant from, Instant to, int stepMinutes) {
    List<Object[]> rows = new ArrayList<>();
    for (Instant t = to.minus(Duration.ofMinutes(15)); !t.isBefore(from); ) {
      for (int m = malos; m >= 1; m--) {
        String value = (m * 10 + (t.getEpochSecond() / 900) % 7) + ".125";
        rows.add(StoredRow.of(table, stored(malo(m), t, value, "20260102000000")));
      }
      t = t.minus(Duration.ofMinutes(stepMinutes));
    }
    return rows;
  }

  /** Every row of {@code rows}, sorted by their text form (for order-free comparison). */
  static List<String> canonical(Iterable<Object[]> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(Arrays.toString(normalised(r))));
    out.sort(Comparator.naturalOrder());
    return out;
  }

  static List<String> canonical(CloseableIterable<Object[]> rows) {
    try (rows) {
      return canonical((Iterable<Object[]>) rows);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Object[] normalised(Object[] row) {
    Object[] copy = row.clone();
    for (int i = 0; i < copy.length; i++) {
      if (copy[i] instanceof BigDecimal) {
        copy[i] = ((BigDecimal) copy[i]).toPlainString();
      }
    }
    return copy;
  }

  /** Reads every row of {@code table}'s current snapshot. */
  static void forEachRow(
      org.apache.iceberg.Table table,
      TableDefinition def,
      java.util.function.Consumer<Object[]> sink) {
    org.meterstore.cold.internal.layout.RowConverter converter =
        new org.meterstore.cold.internal.layout.RowConverter(def, table.schema());
    try (CloseableIterable<org.apache.iceberg.data.Record> records =
        org.apache.iceberg.data.IcebergGenerics.read(table).build()) {
      records.forEach(r -> sink.accept(converter.toRow(r)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** How many rows {@code rows} has; closes it. */
  static long count(CloseableIterable<Object[]> rows) {
    return canonical(rows).size();
  }

  /** Every record of one Parquet data file of {@code table}, in file order. */
  static List<Record> readFile(Table table, String location) throws IOException {
    List<Record> records = new ArrayList<>();
    try (CloseableIterable<Record> r =
        Parquet.read(table.io().newInputFile(location))
            .project(table.schema())
            .createReaderFunc(fs -> GenericParquetReaders.buildReader(table.schema(), fs))
            .build()) {
      r.forEach(records::add);
    }
    return records;
  }

  /** Asserts that {@code records} are sorted by {@code (malo_id, from)}. */
  static void assertSorted(List<Record> records) {
    for (int i = 1; i < records.size(); i++) {
      Record a = records.get(i - 1);
      Record b = records.get(i);
      int byMalo = ((String) a.getField("malo_id")).compareTo((String) b.getField("malo_id"));
      assertThat(byMalo).isLessThanOrEqualTo(0);
      if (byMalo == 0) {
        assertThat((OffsetDateTime) a.getField("from"))
            .isBeforeOrEqualTo((OffsetDateTime) b.getField("from"));
      }
    }
  }
}
