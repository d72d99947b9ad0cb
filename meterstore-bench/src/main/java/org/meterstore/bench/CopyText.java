package org.meterstore.bench;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.postgresql.PGConnection;

/** Rows in PostgreSQL's COPY text format, sent in slices through pgjdbc's copy API. */
final class CopyText {
  private static final int SLICE_ROWS = 20_000;

  private CopyText() {}

  /** {@code COPY <qualified> (<columns of table>) FROM STDIN}; quoted names, trusted input only. */
  static String copyIn(String qualified, TableDefinition table) {
    return "COPY " + qualified + " (" + columnList(table) + ") FROM STDIN";
  }

  /** The table's columns, double-quoted, comma-separated. */
  static String columnList(TableDefinition table) {
    return SqlIdentifiers.quoteAll(table.columns().stream().map(c -> c.name()).toList());
  }

  /** Appends one row (StoredRow layout) as a COPY text line. */
  static void append(StringBuilder text, Object[] row) {
    for (int i = 0; i < row.length; i++) {
      if (i > 0) {
        text.append('\t');
      }
      Object value = row[i];
      text.append(
          value == null
              ? "\\N"
              : value instanceof BigDecimal d ? d.toPlainString() : value.toString());
    }
    text.append('\n');
  }

  /** Copies every row in slices of 20,000; returns the number of rows. */
  static long copy(Connection c, String sql, Iterable<Object[]> rows)
      throws SQLException, IOException {
    long n = 0;
    StringBuilder text = new StringBuilder(SLICE_ROWS * 200);
    int inSlice = 0;
    for (Object[] row : rows) {
      append(text, row);
      n++;
      if (++inSlice == SLICE_ROWS) {
        send(c, sql, text);
        inSlice = 0;
      }
    }
    if (inSlice > 0) {
      send(c, sql, text);
    }
    return n;
  }

  /** Sends one batch of lines as one COPY and empties the buffer. */
  static void send(Connection c, String sql, StringBuilder text) throws SQLException, IOException {
    c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new StringReader(text.toString()));
    text.setLength(0);
  }

  /** Throws unless row and definition agree in width (a guard against a changed table layout). */
  static void checkWidth(TableDefinition table, Object[] row) {
    List<ColumnSpec> columns = table.columns();
    if (columns.size() != row.length) {
      throw new IllegalStateException("row and columns disagree");
    }
  }
}
