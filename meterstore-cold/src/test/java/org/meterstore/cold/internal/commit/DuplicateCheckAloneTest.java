package org.meterstore.cold.internal.commit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.internal.layout.TableLayout;

/**
 * The in-batch classification of a window at W ({@link BatchClassification#classifyAlone}) against
 * the general check on an empty table, on thousands of random batches full of repeats,
 * restatements, new versions, a second operator and overlapping spans: the same outcomes, the same
 * refusals, and the rows to append grouped by ascending MaLo.
 */
class DuplicateCheckAloneTest {
  private static final Instant DAY = Instant.parse("2026-03-10T00:00:00Z");
  private static final String[] MALOS = {"51238696781", "41029384752", "10000000009"};
  private static final String[] OPERATORS = {"9900000000003", "9900000000010"};

  private InMemoryCatalog catalog;

  @BeforeEach
  void open() {
    catalog = new InMemoryCatalog();
    catalog.initialize("t", Map.of());
    catalog.createNamespace(Namespace.of("ns"));
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  @Test
  void spansCheckedAloneAgreesWithTheGeneralCheck() {
    agree(TableDefinition.interval("spans"), true, 3_000);
  }

  @Test
  void aGridThatExcludesOverlapAloneAgreesWithTheGeneralCheck() {
    agree(TableDefinition.interval("grid").withResolution(Resolution.PT15M), false, 3_000);
  }

  @Test
  void aDistinctBatchIsAllInsertedAndComesOutGroupedByMalo() {
    TableDefinition def = TableDefinition.interval("plain");
    DuplicateCheck check = check(def);
    List<Object[]> batch = new ArrayList<>();
    for (int slot = 0; slot < 96; slot++) {
      for (String malo : MALOS) {
        batch.add(row(def, malo, slot, Resolution.PT15M, "20260315000000", "1", OPERATORS[0]));
      }
    }
    BatchClassification.Classified alone = new BatchClassification(check).classifyAlone(batch);
    assertThat(alone.outcomes()).hasSize(batch.size()).containsOnly(WriteOutcome.INSERTED);
    assertThat(alone.toAppend()).hasSameSizeAs(batch);
    assertGroupedByMalo(def, alone.toAppend());
  }

  private void agree(TableDefinition def, boolean mixedResolutions, int batches) {
    Table table =
        catalog.createTable(
            TableIdentifier.of("ns", def.name()), TableLayout.schema(def), null, Map.of());
    DuplicateCheck check = new DuplicateCheck(def, new RowConverter(def, table.schema()), null);
    assertThat(
            new BatchClassification(check)
                .storedCanDecide(
                    table,
                    List.<Object[]>of(
                        row(
                            def,
                            MALOS[0],
                            0,
                            Resolution.PT15M,
                            "20260315000000",
                            "1",
                            OPERATORS[0])),
                    new StoredReach()))
        .isFalse(); // nothing stored: nothing decides
    Random random = new Random(20261205L);
    int refused = 0;
    int repeated = 0;
    for (int b = 0; b < batches; b++) {
      List<Object[]> batch = batch(def, random, mixedResolutions);
      List<WriteOutcome> expected = null;
      MeterStoreException general = null;
      try {
        expected = check.classify(table, batch);
      } catch (MeterStoreException e) {
        general = e;
      }
      BatchClassification.Classified alone;
      try {
        alone = new BatchClassification(check).classifyAlone(batch);
      } catch (MeterStoreException e) {
        assertThat(general).as("batch %d: refused alone only: %s", b, e.getMessage()).isNotNull();
        assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
        refused++;
        continue;
      }
      if (alone == null) { // overlapping spans: the general check refuses the batch
        assertThat(general).as("batch %d", b).isNotNull();
        assertThat(general.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
        refused++;
        continue;
      }
      assertThat(general).as("batch %d: refused by the general check only", b).isNull();
      assertThat(alone.outcomes()).as("batch %d", b).isEqualTo(expected);
      List<Object[]> kept = new ArrayList<>();
      for (int i = 0; i < batch.size(); i++) {
        if (expected.get(i) != WriteOutcome.DUPLICATE) {
          kept.add(batch.get(i));
        }
      }
      assertThat(alone.toAppend()).containsExactlyInAnyOrderElementsOf(kept);
      assertGroupedByMalo(def, alone.toAppend());
      repeated += Collections.frequency(expected, WriteOutcome.DUPLICATE) > 0 ? 1 : 0;
    }
    // the random batches exercise both sides: refusals and accepted batches with repeats
    assertThat(refused).isBetween(batches / 20, batches - batches / 20);
    assertThat(repeated).isGreaterThan(batches / 20);
  }

  /** A dozen readings of few meters, slots, versions and values: repeats are likely. */
  private static List<Object[]> batch(TableDefinition def, Random random, boolean mixed) {
    int size = 1 + random.nextInt(12);
    List<Object[]> batch = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Resolution resolution = mixed && random.nextInt(6) == 0 ? Resolution.PT1H : Resolution.PT15M;
      int slot = random.nextInt(8);
      batch.add(
          row(
              def,
              MALOS[random.nextInt(2)],
              resolution == Resolution.PT1H ? slot - slot % 4 : slot,
              resolution,
              random.nextInt(3) == 0 ? "20260316000000" : "20260315000000",
              random.nextInt(8) == 0 ? "2" : "1",
              OPERATORS[random.nextInt(40) == 0 ? 1 : 0]));
    }
    return batch;
  }

  private static Object[] row(
      TableDefinition def,
      String malo,
      int slot,
      Resolution resolution,
      String version,
      String value,
      String operator) {
    Reading r =
        Reading.builder()
            .malo(malo)
            .obis("1-0:1.8.0")
            .commodity(Commodity.STROM)
            .interval(DAY.plus(Duration.ofMinutes(15L * slot)), resolution)
            .value(value)
            .operator(operator)
            .version(version)
            .build();
    return StoredRow.of(def, StoredReading.accept(r, DAY));
  }

  private static DuplicateCheck check(TableDefinition def) {
    return new DuplicateCheck(def, new RowConverter(def, TableLayout.schema(def)), null);
  }

  private static void assertGroupedByMalo(TableDefinition def, List<Object[]> rows) {
    int malo =
        def.columns().stream()
            .map(c -> c.name())
            .toList()
            .indexOf(StandardColumn.MALO_ID.columnName());
    for (int i = 1; i < rows.size(); i++) {
      assertThat(((String) rows.get(i)[malo]).compareTo((String) rows.get(i - 1)[malo]))
          .isGreaterThanOrEqualTo(0);
    }
  }
}
