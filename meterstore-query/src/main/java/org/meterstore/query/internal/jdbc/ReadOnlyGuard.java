package org.meterstore.query.internal.jdbc;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Refuses every statement but a query ({@code SELECT}, {@code VALUES}, {@code WITH}, set
 * operations) or {@code EXPLAIN} of one. A statement Calcite's parser does not know (DDL such as
 * {@code CREATE} or {@code DROP}) is refused by its first keyword; a malformed query is passed on
 * so that Calcite reports the syntax error.
 */
public final class ReadOnlyGuard {
  /** SQLState of a refused statement: "read-only SQL transaction". */
  public static final String READ_ONLY_STATE = "25006";

  private static final Set<String> QUERY_WORDS = Set.of("SELECT", "WITH", "VALUES", "EXPLAIN");

  /** SQLState of a statement that does not parse: "syntax error". */
  public static final String SYNTAX_ERROR_STATE = "42601";

  /**
   * First words of statements that change something (SQL and PostgreSQL): refused as writes even
   * when the parser does not know them. Any other unparsable text is a syntax error.
   */
  private static final Set<String> WRITE_WORDS =
      Set.of(
          "INSERT",
          "UPDATE",
          "DELETE",
          "MERGE",
          "UPSERT",
          "CREATE",
          "DROP",
          "ALTER",
          "TRUNCATE",
          "GRANT",
          "REVOKE",
          "COPY",
          "COMMENT",
          "REFRESH",
          "VACUUM",
          "ANALYZE",
          "CLUSTER",
          "REINDEX",
          "LOCK",
          "CALL",
          "DO",
          "SET",
          "RESET",
          "BEGIN",
          "START",
          "COMMIT",
          "ROLLBACK",
          "SAVEPOINT",
          "RELEASE",
          "PREPARE",
          "EXECUTE",
          "DEALLOCATE",
          "DISCARD",
          "IMPORT",
          "SECURITY",
          "REASSIGN",
          "LISTEN",
          "NOTIFY",
          "UNLISTEN",
          "LOAD",
          "CHECKPOINT");

  /** SQL texts already passed (true for an {@code EXPLAIN}), so a repeated text is not parsed. */
  private static final int PASSED_TEXTS = 1024;

  private final SqlParser.Config parserConfig;
  private final Map<String, Boolean> passed =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > PASSED_TEXTS;
            }
          });

  public ReadOnlyGuard(SqlParser.Config parserConfig) {
    this.parserConfig = parserConfig;
  }

  /**
   * Passes a query, refuses anything else.
   *
   * @return whether the statement is an {@code EXPLAIN}
   * @throws SQLException with SQLState {@value #READ_ONLY_STATE} naming the statement kind
   */
  public boolean check(String sql) throws SQLException {
    Boolean known = passed.get(sql);
    if (known != null) {
      return known;
    }
    boolean explain = verdict(sql);
    passed.put(sql, explain);
    return explain;
  }

  private boolean verdict(String sql) throws SQLException {
    SqlNode node;
    try {
      node = SqlParser.create(sql, parserConfig).parseStmt();
    } catch (SqlParseException e) {
      String word = firstWord(sql);
      if (QUERY_WORDS.contains(word)) {
        return "EXPLAIN".equals(word);
      }
      if (word.isEmpty() || WRITE_WORDS.contains(word)) {
        throw refused(word.isEmpty() ? "an empty statement" : word);
      }
      throw syntaxError(sql, e);
    }
    SqlKind kind = node.getKind();
    if (kind == SqlKind.EXPLAIN) {
      SqlNode explained = ((SqlExplain) node).getExplicandum();
      if (explained.isA(SqlKind.QUERY)) {
        return true;
      }
      throw refused("EXPLAIN " + explained.getKind());
    }
    if (!node.isA(SqlKind.QUERY)) {
      throw refused(kind.sql);
    }
    return false;
  }

  /**
   * A statement that is neither a query nor a known write, and does not parse: where the parser
   * stopped and at which token, in one line (the parser's own message lists every token it would
   * have accepted).
   */
  private static SQLException syntaxError(String sql, SqlParseException e) {
    SqlParserPos pos = e.getPos();
    String at =
        pos == null ? "" : " at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
    String near = pos == null ? "" : tokenAt(sql, pos.getLineNum(), pos.getColumnNum());
    String token = firstLine(e.getMessage());
    return new SQLException(
        "Cannot parse the statement: syntax error"
            + at
            + (near.isEmpty() ? "" : " near '" + near + "'")
            + (token == null ? "" : " (" + token + ")")
            + "; MeterStore accepts SELECT, WITH, VALUES and EXPLAIN",
        SYNTAX_ERROR_STATE);
  }

  /** The word (letters, digits, {@code _}) at 1-based {@code line} and {@code column}, or "". */
  static String tokenAt(String sql, int line, int column) {
    String[] lines = sql.split("\n", -1);
    if (line < 1 || line > lines.length) {
      return "";
    }
    String text = lines[line - 1];
    int start = column - 1;
    if (start < 0 || start >= text.length()) {
      return "";
    }
    int end = start;
    while (end < text.length()
        && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')
        && end - start < 64) {
      end++;
    }
    return text.substring(start, end);
  }

  /** The parser's "Encountered … at line …" sentence, without its list of expected tokens. */
  private static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return null;
    }
    String line = message.strip().lines().findFirst().orElse("");
    int expecting = line.indexOf("Was expecting");
    line = (expecting < 0 ? line : line.substring(0, expecting)).strip();
    if (line.endsWith(".")) {
      line = line.substring(0, line.length() - 1);
    }
    return line.isEmpty() ? null : line;
  }

  /** The refusal of a statement of {@code kind}. */
  public static SQLException refused(String kind) {
    return new SQLException(
        "Cannot execute "
            + kind
            + ": MeterStore is read-only; only SELECT, VALUES and EXPLAIN are accepted",
        READ_ONLY_STATE);
  }

  static String firstWord(String sql) {
    String s = sql == null ? "" : sql.strip();
    while (true) {
      if (s.startsWith("--")) {
        int nl = s.indexOf('\n');
        s = nl < 0 ? "" : s.substring(nl + 1).strip();
      } else if (s.startsWith("/*")) {
        int end = s.indexOf("*/");
        s = end < 0 ? "" : s.substring(end + 2).strip();
      } else if (s.startsWith("(")) {
        s = s.substring(1).strip();
      } else {
        break;
      }
    }
    int i = 0;
    while (i < s.length() && Character.isLetter(s.charAt(i))) {
      i++;
    }
    return s.substring(0, i).toUpperCase(Locale.ROOT);
  }
}
