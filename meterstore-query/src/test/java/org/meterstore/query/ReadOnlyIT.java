package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Anything but SELECT, VALUES and EXPLAIN is refused through the connection, with a clear error.
 */
@ExtendWith(PostgresExtension.class)
class ReadOnlyIT {
  @TempDir static Path warehouse;
  private static QueryFixture d;

  private static QueryFixture deployment(TestDatabase db) {
    if (d == null) {
      d =
          new QueryFixture(
              db,
              warehouse,
              Instant.parse("2026-02-01T00:00:00Z"),
              List.of(TableDefinition.interval("lastgang")));
    }
    return d;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "INSERT INTO lastgang (malo_id) VALUES ('1')",
        "UPDATE lastgang SET quality = 'FAULTY'",
        "DELETE FROM lastgang",
        "MERGE INTO lastgang t USING lastgang s ON t.malo_id = s.malo_id"
            + " WHEN MATCHED THEN UPDATE SET quality = 'X'",
        "CREATE TABLE x (a INT)",
        "DROP TABLE lastgang",
        "ALTER TABLE lastgang ADD COLUMN x INT",
        "TRUNCATE TABLE lastgang",
        "EXPLAIN PLAN FOR DELETE FROM lastgang",
        "/* sneaky */ drop table lastgang"
      })
  void refusesEverythingButQueries(String sql, TestDatabase db) throws Exception {
    try (Connection c = deployment(db).catalog.connection();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute(sql))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("MeterStore is read-only")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25006"));
      assertThatThrownBy(() -> c.prepareStatement(sql))
          .hasMessageContaining("MeterStore is read-only");
      assertThatThrownBy(() -> s.executeUpdate(sql)).hasMessageContaining("read-only");
    }
  }

  /** Issue #19 item 4: a misspelt statement was "read-only", a division by zero an Error. */
  @Test
  void aSyntaxErrorAndADivisionByZeroAreSqlErrorsInOneLine(TestDatabase db) throws Exception {
    try (Connection c = deployment(db).catalog.connection();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SELEKT 1"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42601");
                assertThat(e.getMessage())
                    .contains("syntax error at line 1, column 1 near 'SELEKT'")
                    .doesNotContain("read-only", "\n");
              });
      for (String sql : List.of("SELECT 1/0", "SELECT 1/0 FROM lastgang LIMIT 1", "SELECT 1/0")) {
        assertThatThrownBy(
                () -> {
                  try (ResultSet rs = s.executeQuery(sql)) {
                    while (rs.next()) {
                      rs.getObject(1);
                    }
                  }
                })
            .as(sql)
            .isInstanceOfSatisfying(
                SQLException.class,
                e -> {
                  assertThat(e.getSQLState()).isEqualTo("22012");
                  assertThat(e.getMessage())
                      .isEqualTo("Cannot evaluate the query: division by zero");
                });
      }
      assertThat(Fixtures.scalar(c, "VALUES 1")).isEqualTo("1"); // the connection still works
    }
  }

  @Test
  void queriesValuesAndExplainPass(TestDatabase db) throws Exception {
    try (Connection c = deployment(db).catalog.connection()) {
      assertThat(Fixtures.scalar(c, "SELECT count(*) FROM lastgang")).isEqualTo("0");
      assertThat(Fixtures.scalar(c, "VALUES 1")).isEqualTo("1");
      assertThat(Fixtures.explain(c, "SELECT * FROM lastgang")).contains("Meter");
      assertThat(c.isReadOnly()).isTrue();
      // Issue #19 item 7: tools call setReadOnly(false) on connect; it is a warning, not an error.
      c.setReadOnly(false);
      assertThat(c.isReadOnly()).isTrue();
      assertThat(c.getWarnings().getMessage()).contains("read-only");
    }
  }

  @Test
  void aMalformedQueryReportsCalcitesSyntaxError(TestDatabase db) throws Exception {
    try (Connection c = deployment(db).catalog.connection();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SELECT FROM WHERE"))
          .isInstanceOf(SQLException.class)
          .hasMessageNotContaining("read-only");
    }
  }
}
