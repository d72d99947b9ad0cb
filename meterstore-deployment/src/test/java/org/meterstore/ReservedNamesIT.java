package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * Issue #19 item 3: a declared column whose name MeterStore used internally ({@code meterstore_rn},
 * the rank of version resolution in the hot tier's SQL) made every query of its table fail with
 * "column reference is ambiguous". MeterStore's own names start with {@code _}, which no declared
 * name can: such a column is just a column.
 */
@ExtendWith(PostgresExtension.class)
class ReservedNamesIT {
  private static final Instant DAY = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-03T12:00:00Z");

  @TempDir static Path warehouse;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @Test
  void aColumnNamedLikeAnInternalAliasIsQueriedLikeAnyOther() throws Exception {
    TableDefinition table =
        CatalogFixture.table("collide", Duration.ofDays(1), Duration.ofHours(1))
            .withExtraColumns(
                List.of(ExtraColumn.attribute("meterstore_rn"), ExtraColumn.attribute("rn")));
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(Instant.parse("2026-02-25T00:00:00Z"));
      List<Reading> batch = new ArrayList<>();
      for (int i = 0; i < 96; i++) {
        batch.add(reading(DAY.plus(Duration.ofMinutes(15L * i)), "0.100", "20260303000000", i));
      }
      catalog.table(table.name()).append(batch, NOW);
      // a correction of the first quarter-hour: the query resolves versions in the hot tier
      catalog
          .table(table.name())
          .append(List.of(reading(DAY, "0.500", "20260303100000", 1000)), NOW.plusSeconds(60));

      try (Connection c = catalog.connection();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT COUNT(*), SUM(\"value\"), MAX(\"meterstore_rn\"), MIN(\"rn\") FROM"
                      + " \"collide\"")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(96);
        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("10.000"); // 95 x 0.1 + 0.5
        assertThat(rs.getString(3)).isEqualTo("rank-95");
        // the corrected quarter-hour's current version carries r-1000, so r-0 is gone
        assertThat(rs.getString(4)).isEqualTo("r-1");
      }
    }
  }

  private static Reading reading(Instant from, String value, String version, int n) {
    return Reading.builder()
        .malo(Workload.malo(1))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, Resolution.PT15M)
        .value(value)
        .operator(Workload.OPERATOR)
        .version(version)
        .extra("meterstore_rn", "rank-" + n)
        .extra("rn", "r-" + n)
        .build();
  }
}
