package org.meterstore.query.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

class ReadOnlyGuardTest {
  private final ReadOnlyGuard guard =
      new ReadOnlyGuard(SqlParser.config().withLex(Lex.JAVA).withQuoting(Quoting.DOUBLE_QUOTE));

  @Test
  void passesQueriesAndExplain() {
    for (String sql :
        new String[] {
          "SELECT 1",
          "VALUES (1, 2)",
          "WITH x AS (SELECT 1 AS a) SELECT a FROM x",
          "SELECT 1 UNION ALL SELECT 2",
          "SELECT \"from\" FROM t ORDER BY 1",
          "EXPLAIN PLAN FOR SELECT 1",
          "SELECT FROM WHERE"
        }) {
      assertThatCode(() -> guard.check(sql)).as(sql).doesNotThrowAnyException();
    }
  }

  @Test
  void refusesEverythingElseNamingIt() {
    assertThatThrownBy(() -> guard.check("DELETE FROM t"))
        .hasMessageContaining("Cannot execute DELETE");
    assertThatThrownBy(() -> guard.check("-- x\n create table t (a int)"))
        .hasMessageContaining("Cannot execute CREATE");
    assertThatThrownBy(() -> guard.check("")).hasMessageContaining("read-only");
    assertThatThrownBy(() -> guard.check("VACUUM t")).hasMessageContaining("Cannot execute VACUUM");
  }

  /** Issue #19 item 4: a misspelt query was called a write ("MeterStore is read-only"). */
  @Test
  void aMisspeltQueryIsASyntaxErrorNamingWhere() {
    assertThatThrownBy(() -> guard.check("SELEKT 1"))
        .isInstanceOfSatisfying(
            java.sql.SQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo(ReadOnlyGuard.SYNTAX_ERROR_STATE);
              assertThat(e.getMessage())
                  .contains("syntax error at line 1, column 1", "SELEKT")
                  .doesNotContain("read-only", "Was expecting", "\n");
            });
  }

  @Test
  void findsTheFirstKeywordPastCommentsAndParentheses() {
    assertThat(ReadOnlyGuard.firstWord("/* a */ -- b\n ( select 1)")).isEqualTo("SELECT");
  }
}
