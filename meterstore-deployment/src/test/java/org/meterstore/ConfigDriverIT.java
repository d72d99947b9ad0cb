package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * {@code jdbc:meterstore:config=<path>} through {@link DriverManager}: the driver finds this
 * module's opener with the service loader, which opens the TOML file with {@link MeterStores} and
 * answers SQL over both tiers of the test database.
 */
@ExtendWith(PostgresExtension.class)
class ConfigDriverIT {
  private static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-01-03T06:00:00Z");

  @TempDir static Path dir;
  private static Path config;

  @BeforeAll
  static void writeConfigAndData(TestDatabase db) throws Exception {
    config = dir.resolve("meterstore.toml");
    Files.writeString(
        config,
        "[hot]\n"
            + "url = \""
            + db.jdbcUrl()
            + "\"\nuser = \""
            + db.user()
            + "\"\npassword = \""
            + db.password()
            + "\"\npool_size = 2\ndetach_mode = \"concurrently\"\n\n[cold]\nwarehouse = \""
            + dir.resolve("warehouse").toUri()
            + "\"\n\n[[tables]]\nname = \"lastgang\"\nsettlement_lag = \"1d\"\n",
        StandardCharsets.UTF_8);
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      // The configured detach mode is the loop's default: this archive detaches CONCURRENTLY.
      assertThat(c.maintenance().detachMode()).isEqualTo(DetachMode.CONCURRENTLY);
      c.createTables(DAY1);
      c.table("lastgang")
          .append(EmbeddedDefaultIT.readings(2, DAY1, DAY1.plus(Duration.ofDays(3))), DAY1);
      assertThat(c.archive(NOW, 8).healthy()).isTrue();
      assertThat(c.table("lastgang").watermark()).isEqualTo(Instant.parse("2026-01-02T00:00:00Z"));
    }
  }

  @Test
  void answersSqlOverBothTiersThroughDriverManager() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:meterstore:config=" + config);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*), SUM(\"value\") FROM \"lastgang\""
                    + " WHERE \"from\" >= TIMESTAMP '2026-01-01 12:00:00'")) {
      rs.next();
      // Half of day 1 (cold) plus days 2 and 3 (hot): 2 meters x (48 + 192) quarter-hours of 1.25
      // and 2.25.
      assertThat(rs.getLong(1)).isEqualTo(2 * (48 + 192));
      assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("840.000000");
    }
  }

  /** Issue #19 item 7: a BI user reads system.* (and a snapshot id) through the URL alone. */
  @Test
  void readsTheSystemRelationsWithSystemAtInTheUrl() throws SQLException {
    String url = "jdbc:meterstore:config=" + config;
    try (Connection c = DriverManager.getConnection(url + ";meterstore.system_at=" + NOW);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT t.watermark_lag_seconds, t.healthy, s.snapshot_id"
                    + " FROM \"system\".tables t JOIN \"system\".seam s ON t.\"table\" = s.\"table\""
                    + " WHERE t.\"table\" = 'lastgang'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1))
          .isEqualTo(Duration.between(Instant.parse("2026-01-02T00:00:00Z"), NOW).toSeconds());
      assertThat(rs.getBoolean(2)).isTrue();
      assertThat(rs.getLong(3)).isPositive();
    }
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SELECT * FROM \"system\".tables"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("meterstore.system_at=now")
          .hasMessageNotContaining("refreshSystemTables");
    }
  }

  @Test
  void aBrokenConfigurationFailsTheConnectionNamingTheProblem() throws Exception {
    Path broken = dir.resolve("broken.toml");
    Files.writeString(broken, "[[tables]]\nname = \"lastgang\"\nsettlement_lag = 30\n");

    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:meterstore:config=" + broken))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("tables[0].settlement_lag")
        .hasMessageContaining("unit");
  }
}
