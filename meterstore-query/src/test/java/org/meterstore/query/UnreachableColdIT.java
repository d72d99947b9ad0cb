package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY4;
import static org.meterstore.query.Fixtures.hourly;
import static org.meterstore.query.Fixtures.scalar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLTransientException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * With the object store gone, a query that needs the cold tier fails loudly and retryably — never a
 * hot-only answer — while a query whose range lies provably in the hot tier still runs.
 */
@ExtendWith(PostgresExtension.class)
class UnreachableColdIT {
  @TempDir Path warehouse;

  @Test
  void coldQueriesFailLoudlyAndHotOnlyQueriesStillWork(TestDatabase db) throws Exception {
    TableDefinition def = TableDefinition.interval("lastgang");
    Path dir = warehouse.resolve("w");
    try (QueryFixture d =
        new QueryFixture(db, dir, Instant.parse("2026-02-01T00:00:00Z"), List.of(def))) {
      d.hot.write(def, hourly(2, DAY1, DAY4, "20260105000000"), d.clock.instant());
      d.archive(def, DAY1, DAY2, true);
      try (Connection c = d.catalog.connection()) {
        assertThat(scalar(c, "SELECT count(*) FROM lastgang")).isEqualTo("144");
      }
      deleteRecursively(dir);

      try (Connection c = d.catalog.connection()) {
        for (String sql :
            List.of(
                "SELECT count(*) FROM lastgang",
                "SELECT count(*) FROM lastgang WHERE \"from\" < TIMESTAMP '2026-01-03 00:00:00'",
                "SELECT count(*) FROM lastgang_versions")) {
          assertThatThrownBy(() -> scalar(c, sql))
              .isInstanceOf(SQLTransientException.class)
              .hasMessageContaining("lastgang")
              .cause()
              .isInstanceOfSatisfying(
                  MeterStoreException.class,
                  e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
                    assertThat(e.isRetryable()).isTrue();
                  });
        }
        assertThat(
                scalar(
                    c,
                    "SELECT count(*) FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-02 00:00:00'"))
            .isEqualTo("96");
        assertThat(
                Fixtures.explain(
                    c, "SELECT * FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-02 06:00:00'"))
            // the catalog still answers and its pointer has not moved: W is known from the
            // metadata read before the files went
            .contains("watermark=[2026-01-02T00:00:00Z]")
            .contains("MeterColdScan")
            .contains("reads=[nothing now (range at or above W)]");
        try (PreparedStatement s =
            c.prepareStatement("SELECT count(*) FROM lastgang WHERE \"from\" >= ?")) {
          s.setTimestamp(1, Timestamp.from(DAY2));
          try (ResultSet rs = s.executeQuery()) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(96);
          }
          s.setTimestamp(1, Timestamp.from(DAY1));
          assertThatThrownBy(s::executeQuery).isInstanceOf(SQLTransientException.class);
        }
      }
      Properties operational = new Properties();
      operational.setProperty(QueryProperties.MODE, "operational");
      try (Connection c = d.catalog.connection(operational)) {
        assertThat(scalar(c, "SELECT count(*) FROM lastgang")).isEqualTo("96");
      }
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
