package org.meterstore.hot.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;

/** Which batches read their stored versions by ranges, and which by a probe per key. */
class StoredVersionsTest {
  private static final Instant DAY = Instant.parse("2026-03-02T23:00:00Z");
  private static final TableDefinition GRID =
      TableDefinition.interval("lastgang").withResolution(Resolution.PT15M);

  private static StoredVersions.Lookup lookup(TableDefinition table, List<Reading> batch) {
    TableLayout layout = new TableLayout(table);
    List<BatchRow> rows = new BatchPreparer(layout).prepare(batch, Fixtures.NOW, null);
    return new StoredVersions(layout, "meterstore").lookup(rows);
  }

  @Test
  void meterDaysOfAGridTableAreReadByOneRangeEach() {
    List<Reading> batch = new ArrayList<>();
    for (int m = 1; m <= 6; m++) {
      batch.addAll(Fixtures.day(m, DAY, "20260303000000"));
    }
    StoredVersions.Lookup lookup = lookup(GRID, batch);
    assertThat(lookup.ranges()).hasSize(6);
    assertThat(lookup.ranges().get(0))
        .containsExactly(
            Fixtures.malo(1),
            "1-0:1.8.0",
            DAY.toString(),
            DAY.plus(Duration.ofMinutes(95 * 15)).toString());
    // only the ranges are bound; the rows found are kept for the batch's keys
    assertThat(lookup.sql())
        .startsWith("SELECT t.\"malo_id\", t.\"obis_code\", t.\"from\", t.\"version\"")
        .contains("r.lo::timestamptz")
        .doesNotContain("?::text[], ?::text[], ?::text[], ?::text[], ?::text[]");
    assertThat(lookup.keys()).hasSize(6 * 96);
  }

  @Test
  void sparseBatchesSingleKeysAndTablesWithoutAGridProbeEachKey() {
    // two quarter-hours a week apart: the range would read the week between them
    List<Reading> sparse =
        List.of(
            Fixtures.quarterHour(1, DAY, "1", "20260303000000").build(),
            Fixtures.quarterHour(1, DAY.plus(Duration.ofDays(7)), "1", "20260303000000").build());
    assertThat(lookup(GRID, sparse).ranges()).isNull();
    // one quarter-hour of each of many meters: a range per key buys nothing
    List<Reading> wide = new ArrayList<>();
    for (int m = 1; m <= 50; m++) {
      wide.add(Fixtures.quarterHour(m, DAY, "1", "20260303000000").build());
    }
    assertThat(lookup(GRID, wide).ranges()).isNull();
    // one meter-day: too few keys for ranges to pay
    assertThat(lookup(GRID, Fixtures.day(1, DAY, "20260303000000")).ranges()).isNull();
    // no declared resolution: no grid to count slots on
    assertThat(
            lookup(TableDefinition.interval("frei"), Fixtures.day(1, DAY, "20260303000000"))
                .ranges())
        .isNull();
  }
}
