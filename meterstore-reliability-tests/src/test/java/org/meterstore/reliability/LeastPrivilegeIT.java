package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.Tiers;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * MeterStore runs as a role that is no superuser and may create no database and no role, holding
 * exactly the grants {@code docs/operations.md} documents ("Running as a least-privilege role"):
 * the test database's superuser creates the role, the schema it owns, {@code btree_gist} and the
 * grants; then, as that role, a whole slice runs — create tables, append (hot, and a late
 * correction that goes cold), archive and reclaim, query in the current, historical and operational
 * modes with the expected counts and sums. The role cannot read another schema, and is no
 * superuser.
 */
@ExtendWith(PostgresExtension.class)
class LeastPrivilegeIT {
  static final String ROLE = "meterstore_app";
  static final String PASSWORD = "app-Pw-2026";
  static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
  static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");

  @TempDir static Path dir;
  static TestDatabase db;

  /** The documented setup, run by the database's superuser (docs/operations.md). */
  static List<String> grants(String database) {
    return List.of(
        "CREATE ROLE "
            + ROLE
            + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '"
            + PASSWORD
            + "'",
        "GRANT CONNECT ON DATABASE \"" + database + "\" TO " + ROLE,
        "CREATE SCHEMA meterstore AUTHORIZATION " + ROLE,
        "CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA meterstore",
        "GRANT USAGE, CREATE ON SCHEMA public TO " + ROLE);
  }

  @BeforeAll
  static void createTheRole(TestDatabase database) throws SQLException {
    db = database;
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP ROLE IF EXISTS " + ROLE);
      for (String sql : grants(db.name())) {
        s.execute(sql);
      }
      s.execute("CREATE SCHEMA admin_only");
      s.execute("CREATE TABLE admin_only.payroll (amount numeric)");
      s.execute("INSERT INTO admin_only.payroll VALUES (4711)");
    }
  }

  @AfterAll
  static void dropTheRole() throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP OWNED BY " + ROLE + " CASCADE");
      s.execute("DROP ROLE " + ROLE);
    }
  }

  @Test
  void aWholeSliceRunsAsTheLeastPrivilegeRole() throws Exception {
    Path config = dir.resolve("meterstore.toml");
    Files.writeString(
        config,
        "[hot]\nurl = \""
            + db.jdbcUrl()
            + "\"\nuser = \""
            + ROLE
            + "\"\npassword = \"${APP_PASSWORD}\"\npool_size = 3\n\n[cold]\nwarehouse = \""
            + dir.resolve("warehouse").toUri()
            + "\"\n\n[[tables]]\nname = \"lastgang\"\nsettlement_lag = \"1d\"\n"
            + "reader_grace = \"1h\"\n",
        StandardCharsets.UTF_8);
    try (MeterCatalog catalog =
        MeterStores.open(
            org.meterstore.config.MeterStoreConfig.load(
                config, java.util.Map.of("APP_PASSWORD", PASSWORD)),
            OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      List<Reading> batch = new ArrayList<>();
      for (Instant day : List.of(MAR2, MAR3)) {
        for (int q = 0; q < 4; q++) {
          for (int meter = 1; meter <= 2; meter++) {
            batch.add(reading(meter, day.plus(Duration.ofMinutes(15L * q)), "1.5", 1));
          }
        }
      }
      assertThat(catalog.table("lastgang").append(batch, CREATED).tiers()).containsOnly(Tier.HOT);
      assertThat(catalog.archive(MAR4, 8).healthy()).isTrue(); // detach, write Iceberg, commit W

      WriteResult late =
          catalog
              .table("lastgang")
              .append(List.of(reading(1, MAR2, "4", 2)), MAR4.plus(Duration.ofMinutes(10)));
      assertThat(late.tiers()).containsExactly(Tier.COLD);
      assertThat(late.outcomes()).containsExactly(WriteOutcome.SUPERSEDED);

      Instant later = MAR4.plus(Duration.ofHours(2));
      assertThat(catalog.archive(later, 8).healthy()).isTrue(); // reclaims (drops) Mar 2
      assertThat(Tiers.hot(catalog).partitions().list(catalog.table("lastgang").definition()))
          .noneMatch(p -> p.lowerBound().isBefore(MAR3));
      assertThat(catalog.table("lastgang").watermark()).isEqualTo(MAR3);

      assertThat(totals(catalog, "current", "lastgang")).isEqualTo("16 26.5");
      assertThat(totals(catalog, "historical", "lastgang")).isEqualTo("8 14.5");
      assertThat(totals(catalog, "operational", "lastgang")).isEqualTo("8 12");
      assertThat(totals(catalog, "current", "lastgang_versions")).isEqualTo("17 28");
      catalog.refreshSystemTables(later);
      try (Connection c = catalog.connection();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT \"healthy\", \"invariant_violations\" FROM \"system\".tables")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean(1)).isTrue();
        assertThat(rs.getLong(2)).isZero();
      }
    }
  }

  @Test
  void theRoleIsNoSuperuserAndCannotReachAnotherSchema() throws SQLException {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), ROLE, PASSWORD);
        Statement s = c.createStatement()) {
      try (ResultSet rs =
          s.executeQuery(
              "SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles"
                  + " WHERE rolname = current_user")) {
        rs.next();
        assertThat(List.of(rs.getBoolean(1), rs.getBoolean(2), rs.getBoolean(3), rs.getBoolean(4)))
            .containsOnly(false);
      }
      for (String sql :
          List.of(
              "SELECT * FROM admin_only.payroll",
              "CREATE TABLE admin_only.x (a int)",
              "DROP TABLE admin_only.payroll",
              "CREATE DATABASE other",
              "CREATE ROLE other",
              "ALTER SYSTEM SET work_mem = '1GB'")) {
        Throwable refused = catchThrowable(() -> s.execute(sql));
        assertThat(refused)
            .as(sql)
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42501"));
      }
    }
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT sum(amount) FROM admin_only.payroll")) {
      rs.next();
      assertThat(rs.getBigDecimal(1)).isEqualByComparingTo(new BigDecimal("4711"));
    }
  }

  private static String totals(MeterCatalog catalog, String mode, String relation)
      throws SQLException {
    Properties p = new Properties();
    p.setProperty("meterstore.mode", mode);
    try (Connection c = catalog.connection(p);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT count(*), sum(\"value\") FROM \"" + relation + "\"")) {
      rs.next();
      return rs.getLong(1) + " " + rs.getBigDecimal(2).stripTrailingZeros().toPlainString();
    }
  }

  private static Reading reading(int meter, Instant from, String value, int version) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(15)))
        .value(value)
        .version("2026030" + version + "000000")
        .operator(Workload.OPERATOR)
        .build();
  }
}
