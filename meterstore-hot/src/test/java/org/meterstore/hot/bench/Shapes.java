package org.meterstore.hot.bench;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.postgresql.PGConnection;

/**
 * Statement shapes in isolation (see {@link HotIngestBenchmark}): each shape writes the same
 * warm-up and measured days into its own partitioned copy of MeterStore's table, whose partitions
 * are {@code LIKE} MeterStore's ({@code INCLUDING ALL}: primary key, CHECKs and both GiST exclusion
 * constraints). One transaction per 96-reading batch, rows built before the clock starts.
 */
final class Shapes {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

  private Shapes() {}

  /** A way to write one batch of rows (column order) into {@code table}. */
  private interface Shape {
    void write(Connection c, String table, List<Object[]> rows) throws SQLException, IOException;
  }

  static void run(
      Connection c, List<List<Reading>> warmUp, List<List<Reading>> measured, double copyRate)
      throws SQLException, IOException {
    List<List<Object[]>> warm = rows(warmUp);
    List<List<Object[]>> day = rows(measured);
    Instant first = warmUp.get(0).get(0).from();
    Instant second = measured.get(0).get(0).from();
    List<String> names = List.of("on_conflict", "plain", "staging", "copy_gist");
    List<Shape> shapes =
        List.of(Shapes::onConflict, Shapes::plain, Shapes::staging, Shapes::copyInto);
    List<String> labels =
        List.of(
            "INSERT unnest ON CONFLICT DO NOTHING RETURNING",
            "plain INSERT unnest",
            "COPY to temp staging + INSERT SELECT",
            "raw COPY into the table WITH both GiST");
    try (Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA shapes");
      s.execute("CREATE TEMP TABLE staging (LIKE meterstore.lastgang) ON COMMIT DELETE ROWS");
    }
    for (int i = 0; i < shapes.size(); i++) {
      String table = "shapes." + names.get(i);
      createTable(c, table, first, second);
      Shape shape = shapes.get(i);
      writeAll(c, shape, table, warm);
      long started = System.nanoTime();
      writeAll(c, shape, table, day);
      double rate = day.size() * 96 / ((System.nanoTime() - started) / 1e9);
      System.out.printf(
          Locale.ROOT,
          "shape %-50s %,10.0f readings/s  (%.2f of raw COPY without GiST)%n",
          labels.get(i),
          rate,
          rate / copyRate);
    }
  }

  private static void writeAll(Connection c, Shape shape, String table, List<List<Object[]>> day)
      throws SQLException, IOException {
    c.setAutoCommit(false);
    try {
      for (List<Object[]> batch : day) {
        shape.write(c, table, batch);
        c.commit();
      }
    } finally {
      c.setAutoCommit(true);
    }
  }

  private static List<List<Object[]>> rows(List<List<Reading>> batches) {
    List<List<Object[]>> rows = new ArrayList<>();
    for (List<Reading> batch : batches) {
      List<Object[]> b = new ArrayList<>();
      for (Reading r : batch) {
        b.add(StoredRow.of(TABLE, StoredReading.accept(r, NOW)));
      }
      rows.add(b);
    }
    return rows;
  }

  /** A parent like MeterStore's; partitions LIKE MeterStore's, attached. */
  private static void createTable(Connection c, String table, Instant first, Instant second)
      throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE "
              + table
              + " (LIKE meterstore.lastgang INCLUDING ALL) PARTITION BY RANGE (\"from\")");
      for (Instant day : List.of(first, second)) {
        String source =
            "meterstore.lastgang_" + day.toString().substring(0, 10).replace('-', '_') + "_0000";
        String partition = table + "_" + day.getEpochSecond();
        s.execute("CREATE TABLE " + partition + " (LIKE " + source + " INCLUDING ALL)");
        s.execute(
            "ALTER TABLE "
                + table
                + " ATTACH PARTITION "
                + partition
                + " FOR VALUES FROM ('"
                + day
                + "') TO ('"
                + day.plus(Duration.ofDays(1))
                + "')");
      }
    }
  }

  private static String columns() {
    return String.join(
        ", ", TABLE.columns().stream().map(col -> "\"" + col.name() + "\"").toList());
  }

  private static String unnestSelect() {
    List<ColumnSpec> columns = TABLE.columns();
    List<String> casts = new ArrayList<>();
    List<String> params = new ArrayList<>();
    List<String> aliases = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      String type =
          switch (columns.get(i).type()) {
            case TEXT -> "";
            case TIMESTAMPTZ -> "::timestamptz";
            case DATE -> "::date";
            default -> "::numeric";
          };
      casts.add("b.c" + i + type);
      params.add("?::text[]");
      aliases.add("c" + i);
    }
    return "SELECT "
        + String.join(", ", casts)
        + " FROM unnest("
        + String.join(", ", params)
        + ") AS b("
        + String.join(", ", aliases)
        + ")";
  }

  private static void bind(Connection c, PreparedStatement s, List<Object[]> rows)
      throws SQLException {
    int columns = TABLE.columns().size();
    for (int col = 0; col < columns; col++) {
      String[] values = new String[rows.size()];
      for (int i = 0; i < values.length; i++) {
        Object v = rows.get(i)[col];
        values[i] = v == null ? null : v instanceof BigDecimal d ? d.toPlainString() : v.toString();
      }
      Array array = c.createArrayOf("text", values);
      s.setArray(col + 1, array);
    }
  }

  private static void onConflict(Connection c, String table, List<Object[]> rows)
      throws SQLException {
    String pk = "\"malo_id\", \"obis_code\", \"from\", \"version\"";
    String sql =
        "INSERT INTO "
            + table
            + " ("
            + columns()
            + ") "
            + unnestSelect()
            + " ON CONFLICT ("
            + pk
            + ") DO NOTHING RETURNING "
            + pk;
    try (PreparedStatement s = c.prepareStatement(sql)) {
      bind(c, s, rows);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          rs.getString(1);
        }
      }
    }
  }

  private static void plain(Connection c, String table, List<Object[]> rows) throws SQLException {
    String sql = "INSERT INTO " + table + " (" + columns() + ") " + unnestSelect();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      bind(c, s, rows);
      s.executeUpdate();
    }
  }

  private static void staging(Connection c, String table, List<Object[]> rows)
      throws SQLException, IOException {
    copyText(c, "staging", rows);
    try (Statement s = c.createStatement()) {
      s.executeUpdate(
          "INSERT INTO " + table + " (" + columns() + ") SELECT " + columns() + " FROM staging");
    }
  }

  private static void copyInto(Connection c, String table, List<Object[]> rows)
      throws SQLException, IOException {
    copyText(c, table, rows);
  }

  private static void copyText(Connection c, String table, List<Object[]> rows)
      throws SQLException, IOException {
    StringBuilder text = new StringBuilder(rows.size() * 200);
    for (Object[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        if (i > 0) {
          text.append('\t');
        }
        Object v = row[i];
        text.append(
            v == null ? "\\N" : v instanceof BigDecimal d ? d.toPlainString() : v.toString());
      }
      text.append('\n');
    }
    c.unwrap(PGConnection.class)
        .getCopyAPI()
        .copyIn(
            "COPY " + table + " (" + columns() + ") FROM STDIN", new StringReader(text.toString()));
  }
}
