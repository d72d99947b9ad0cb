package org.meterstore.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class PostgresExtensionIT {
  private final TestDatabase db;

  PostgresExtensionIT(TestDatabase db) {
    this.db = db;
  }

  @Test
  void givesARealPostgresOfAtLeastVersion15() throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW server_version_num")) {
      rs.next();
      assertThat(rs.getInt(1)).isGreaterThanOrEqualTo(150000);
    }
  }

  @Test
  void runsRealSqlIncludingRangePartitioningAndGistExclusion() throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS btree_gist");
      s.execute(
          "CREATE TABLE parent (k text, t timestamptz, u timestamptz) PARTITION BY RANGE (t)");
      s.execute(
          "CREATE TABLE part (k text, t timestamptz, u timestamptz,"
              + " EXCLUDE USING gist (k WITH =, tstzrange(t, u) WITH &&))");
      s.execute(
          "ALTER TABLE parent ATTACH PARTITION part"
              + " FOR VALUES FROM ('2026-01-01Z') TO ('2026-01-02Z')");
      s.execute("INSERT INTO part VALUES ('a', '2026-01-01T00:00Z', '2026-01-01T00:15Z')");
      assertThatThrownBy(
              () ->
                  s.execute(
                      "INSERT INTO part VALUES ('a', '2026-01-01T00:10Z', '2026-01-01T00:25Z')"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("exclusion constraint");
      s.execute("CREATE TABLE readings (k text, v numeric(18,6))");
      s.execute("INSERT INTO readings VALUES ('a', 1.5), ('b', 2.25)");
      try (ResultSet rs = s.executeQuery("SELECT count(*), sum(v) FROM readings")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(2);
        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("3.75");
      }
    }
  }

  @Test
  void theDataSourceReachesTheSameDatabase() throws SQLException {
    try (Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_database()")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo(db.name());
    }
  }

  @Nested
  class NestedClasses {
    @Test
    void shareTheDatabaseOfTheirOuterClass(TestDatabase nested) {
      assertThat(nested).isEqualTo(db);
    }
  }

  static List<String> tables(TestDatabase db) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }
}
