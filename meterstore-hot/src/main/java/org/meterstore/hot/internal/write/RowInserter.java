package org.meterstore.hot.internal.write;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.SqlIdentifiers;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Inserts a batch's new rows in one plain statement, {@code INSERT … SELECT … FROM
 * unnest(?::text[], …)} (no {@code ON CONFLICT}, no {@code RETURNING}), followed by {@code COMMIT}
 * in the same round trip. Known redeliveries never reach it (the writer filters them against the
 * stored versions it read under its lock), so a redelivered day inserts nothing and leaves no dead
 * tuple. A row that a concurrent writer stored after that read makes the statement fail with a
 * unique violation (23505) and the whole transaction roll back; the writer then retries the batch,
 * whose fresh read reports that row {@code DUPLICATE} (or refuses it if it differs). Only that race
 * ever leaves dead tuples.
 *
 * <p>The plain shape is what makes the {@code COMMIT} in the same round trip safe: the statement
 * stores every row or fails. With {@code ON CONFLICT DO NOTHING} (the previous shape) a skipped row
 * had to be re-checked before the transaction could commit. See docs/benchmarks.md.
 *
 * <p>Batches of {@link #COPY_ROWS} new rows or more go as one {@code COPY … FROM STDIN} (text
 * format) into the parent instead: the same all-or-nothing statement, routed to the partitions by
 * the server, which stores a row about 3 µs faster than the arrays' unnest and casts (measured at
 * 9,600 rows, docs/benchmarks.md); it fails with the same SQL states (a unique violation, an
 * exclusion violation on a partition that still has a constraint, no partition for a row). The
 * transaction is then committed by the caller, one more round trip, which a large batch does not
 * notice and a small one would.
 */
final class RowInserter {
  /** New rows from which a batch is written with {@code COPY} rather than {@code INSERT}. */
  static final int COPY_ROWS = 1_000;

  /** The characters of COPY text sent at a time. */
  static final int COPY_CHUNK = 1 << 16;

  private final TableLayout layout;
  private final String sql;
  private final String copySql;

  RowInserter(TableLayout layout, String schema) {
    this.layout = layout;
    List<ColumnSpec> columns = layout.columns();
    List<String> names = columns.stream().map(ColumnSpec::name).toList();
    List<String> casts = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      casts.add(TableLayout.cast("b.c" + i, columns.get(i).type()));
    }
    this.sql =
        "INSERT INTO "
            + SqlIdentifiers.qualified(schema, layout.table().name())
            + " ("
            + SqlIdentifiers.quoteAll(names)
            + ") SELECT "
            + String.join(", ", casts)
            + " FROM "
            + TableLayout.unnest(columns.size(), "b", false)
            + ";\nCOMMIT";
    this.copySql =
        "COPY "
            + SqlIdentifiers.qualified(schema, layout.table().name())
            + " ("
            + SqlIdentifiers.quoteAll(names)
            + ") FROM STDIN";
  }

  /**
   * Inserts {@code rows}, all or none, and commits the transaction in the same round trip: the
   * insert is the write's last statement, and a failed insert skips the {@code COMMIT} (the server
   * ignores the rest of a message after an error), leaving the transaction for the caller to roll
   * back. The caller's own commit then finds no open transaction and sends nothing. A batch of
   * {@link #COPY_ROWS} rows or more is copied instead, and the caller's commit ends it.
   */
  void insertAndCommit(Connection c, List<BatchRow> rows) throws SQLException {
    if (rows.size() >= COPY_ROWS) {
      copy(c, rows);
      return;
    }
    List<List<String>> tuples = new ArrayList<>(rows.size());
    for (BatchRow row : rows) {
      tuples.add(Arrays.stream(row.values()).map(TableLayout::text).toList());
    }
    try (PreparedStatement s = c.prepareStatement(sql)) {
      StoredVersions.bindColumns(c, s, tuples, layout.columns().size(), 1);
      s.execute();
      int inserted = s.getUpdateCount();
      if (inserted != rows.size()) {
        throw new SQLException("inserted " + inserted + " of " + rows.size() + " rows", "XX000");
      }
    }
  }

  /**
   * Sends {@code rows} as one {@code COPY}; the caller commits. The text goes out in pieces of
   * about {@link #COPY_CHUNK} characters as it is made, so the server parses and stores the first
   * rows while the last are still being written (made whole first, the server waited for all of it:
   * some 10 ms of a 9,600-reading batch).
   */
  private void copy(Connection c, List<BatchRow> rows) throws SQLException {
    CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql);
    try {
      StringBuilder text = new StringBuilder(COPY_CHUNK + 1024);
      for (BatchRow row : rows) {
        Object[] values = row.values();
        for (int i = 0; i < values.length; i++) {
          if (i > 0) {
            text.append('\t');
          }
          appendCopyText(text, TableLayout.text(values[i]));
        }
        text.append('\n');
        if (text.length() >= COPY_CHUNK) {
          send(in, text);
        }
      }
      send(in, text);
      long copied = in.endCopy();
      if (copied != rows.size()) {
        throw new SQLException("copied " + copied + " of " + rows.size() + " rows", "XX000");
      }
    } catch (SQLException | RuntimeException e) {
      if (in.isActive()) {
        try {
          in.cancelCopy(); // a failure while sending: the connection must leave COPY mode
        } catch (SQLException cancel) {
          e.addSuppressed(cancel);
        }
      }
      throw e;
    }
  }

  private static void send(CopyIn in, StringBuilder text) throws SQLException {
    if (text.length() > 0) {
      byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      in.writeToCopy(bytes, 0, bytes.length);
      text.setLength(0);
    }
  }

  /**
   * {@code value} in COPY's text format: {@code \N} for null; backslash, tab, line feed and
   * carriage return escaped, everything else as it is.
   */
  static void appendCopyText(StringBuilder out, String value) {
    if (value == null) {
      out.append("\\N");
      return;
    }
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      switch (ch) {
        case '\\' -> out.append("\\\\");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        default -> out.append(ch);
      }
    }
  }
}
