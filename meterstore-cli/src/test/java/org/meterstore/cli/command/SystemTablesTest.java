package org.meterstore.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.meterstore.cli.output.Rows;

class SystemTablesTest {
  private static final List<String> COLUMNS =
      List.of(
          "table",
          "watermark",
          "watermark_lag_seconds",
          "hot_partitions",
          "partitions_ahead",
          "invariant_violations",
          "healthy",
          "committed_watermark");

  @Test
  void aWatermarkBelowTheCommittedOneIsNamedAsARollback() {
    Instant w = Instant.parse("2027-03-02T00:00:00Z");
    Instant floor = Instant.parse("2027-03-03T00:00:00Z");
    Rows tables = new Rows(COLUMNS, List.of(row("strom", w, floor, false)));

    Rows problems = SystemTables.problems(tables, Map.of());

    assertThat(problems.rows()).hasSize(1);
    assertThat(problems.get(0, "problem")).isEqualTo("watermark_went_back");
    assertThat((String) problems.get(0, "detail")).contains(floor.toString(), "roll the table");
  }

  @Test
  void aWatermarkAtTheCommittedOneIsNoProblem() {
    Instant w = Instant.parse("2027-03-03T00:00:00Z");
    Rows tables = new Rows(COLUMNS, List.of(row("strom", w, w, true)));

    assertThat(SystemTables.problems(tables, Map.of()).rows()).isEmpty();
  }

  private static List<Object> row(String table, Instant w, Instant floor, boolean healthy) {
    return Arrays.asList(table, w, 3600L, 4L, 2L, 0L, healthy, floor);
  }
}
