package org.meterstore.interop.spark;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.apache.iceberg.Schema;
import org.apache.iceberg.spark.source.SparkTable;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.types.StructField;
import scala.Tuple2;
import scala.collection.Iterable;
import scala.collection.Iterator;
import scala.collection.Map;

/**
 * Runs named Spark SQL statements against one MeterStore deployment and writes each statement's
 * result to a file: {@code java ... SparkSqlRunner <request.properties> <output-dir>}.
 *
 * <p>The request is a properties file: {@code catalog.uri}, {@code catalog.user}, {@code
 * catalog.password} (the Iceberg JDBC catalog, registered as Spark catalog {@code meterstore}),
 * {@code warehouse}, {@code hot.url}, {@code hot.user}, {@code hot.password} (PostgreSQL,
 * registered as Spark's JDBC table catalog {@code hot}), {@code spark.dir} (scratch space), {@code
 * statements} (names, comma-separated, run in that order) and for each name {@code sql.<name>}. A
 * statement whose SQL is {@code iceberg-schema <catalog>.<namespace>.<table>} is not SQL: it prints
 * the Iceberg schema of the table as Spark's catalog loaded it (one row per top-level field: id,
 * name, type, required).
 *
 * <p>Each statement writes {@code <name>.tsv}: a header of {@code column:type} cells, then one line
 * per row, cells separated by tabs; {@code \N} is null and backslash, tab and newline are escaped
 * as {@code \\}, {@code \t}, {@code \n}. Decimals print in plain notation with their scale,
 * timestamps as ISO instants (Spark's Java 8 time API, session time zone UTC), dates as {@code
 * yyyy-MM-dd}, maps and arrays as {@code {k=v, ...}} and {@code [a, ...]}. A statement that fails
 * writes {@code <name>.error} (the stack trace) instead, and the next statement still runs.
 */
public final class SparkSqlRunner {
  private static final String SCHEMA_COMMAND = "iceberg-schema ";

  private SparkSqlRunner() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: SparkSqlRunner <request.properties> <output-dir>");
      System.exit(2);
    }
    Properties request = new Properties();
    try (Reader r = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
      request.load(r);
    }
    Path out = Path.of(args[1]);
    Files.createDirectories(out);
    long started = System.nanoTime();
    try (SparkSession spark = session(request)) {
      System.err.printf(
          "SparkSqlRunner: Spark %s (JVM time zone %s) up in %d ms%n",
          spark.version(),
          java.util.TimeZone.getDefault().getID(),
          (System.nanoTime() - started) / 1_000_000);
      for (String name : request.getProperty("statements", "").split(",")) {
        if (name.isBlank()) {
          continue;
        }
        String sql = required(request, "sql." + name);
        long t0 = System.nanoTime();
        try {
          List<String> lines =
              sql.startsWith(SCHEMA_COMMAND)
                  ? icebergSchema(spark, sql.substring(SCHEMA_COMMAND.length()).trim())
                  : query(spark, sql);
          Files.write(out.resolve(name + ".tsv"), lines, StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
          StringWriter trace = new StringWriter();
          e.printStackTrace(new PrintWriter(trace));
          Files.writeString(out.resolve(name + ".error"), trace.toString(), StandardCharsets.UTF_8);
        }
        System.err.printf(
            "SparkSqlRunner: %s in %d ms%n", name, (System.nanoTime() - t0) / 1_000_000);
      }
    }
  }

  private static SparkSession session(Properties request) {
    Path dir = Path.of(required(request, "spark.dir"));
    return SparkSession.builder()
        .appName("meterstore-interop")
        .master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.local.dir", dir.resolve("local").toString())
        .config("spark.sql.warehouse.dir", dir.resolve("spark-warehouse").toUri().toString())
        .config("spark.sql.catalogImplementation", "in-memory")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.datetime.java8API.enabled", "true")
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config("spark.sql.catalog.meterstore", "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog.meterstore.type", "jdbc")
        .config("spark.sql.catalog.meterstore.uri", required(request, "catalog.uri"))
        .config("spark.sql.catalog.meterstore.jdbc.user", required(request, "catalog.user"))
        .config("spark.sql.catalog.meterstore.jdbc.password", required(request, "catalog.password"))
        .config("spark.sql.catalog.meterstore.jdbc.schema-version", "V1")
        .config("spark.sql.catalog.meterstore.warehouse", required(request, "warehouse"))
        .config(
            "spark.sql.catalog.hot",
            "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog")
        .config("spark.sql.catalog.hot.url", required(request, "hot.url"))
        .config("spark.sql.catalog.hot.user", required(request, "hot.user"))
        .config("spark.sql.catalog.hot.password", required(request, "hot.password"))
        .config("spark.sql.catalog.hot.driver", "org.postgresql.Driver")
        .getOrCreate();
  }

  private static String required(Properties request, String key) {
    String v = request.getProperty(key);
    if (v == null) {
      throw new IllegalArgumentException("request has no " + key);
    }
    return v;
  }

  private static List<String> query(SparkSession spark, String sql) {
    Dataset<Row> df = spark.sql(sql);
    List<String> lines = new ArrayList<>();
    List<String> header = new ArrayList<>();
    for (StructField f : df.schema().fields()) {
      header.add(escape(f.name() + ":" + f.dataType().simpleString()));
    }
    lines.add(String.join("\t", header));
    for (Row row : df.collectAsList()) {
      List<String> cells = new ArrayList<>(row.size());
      for (int i = 0; i < row.size(); i++) {
        cells.add(row.isNullAt(i) ? "\\N" : escape(render(row.get(i))));
      }
      lines.add(String.join("\t", cells));
    }
    return lines;
  }

  /** The table's Iceberg schema as Spark's catalog {@code catalog} loads it. */
  private static List<String> icebergSchema(SparkSession spark, String qualified) {
    String[] parts = qualified.split("\\.");
    if (parts.length != 3) {
      throw new IllegalArgumentException("expected <catalog>.<namespace>.<table>: " + qualified);
    }
    TableCatalog catalog = (TableCatalog) spark.sessionState().catalogManager().catalog(parts[0]);
    Table table;
    try {
      table = catalog.loadTable(Identifier.of(new String[] {parts[1]}, parts[2]));
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
      throw new IllegalArgumentException("no table " + qualified, e);
    }
    Schema schema = ((SparkTable) table).table().schema();
    List<String> lines = new ArrayList<>();
    lines.add("id:int\tname:string\ttype:string\trequired:boolean");
    for (Types.NestedField f : schema.columns()) {
      lines.add(
          f.fieldId()
              + "\t"
              + escape(f.name())
              + "\t"
              + escape(f.type().toString())
              + "\t"
              + f.isRequired());
    }
    return lines;
  }

  private static String render(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof Instant || v instanceof LocalDate || v instanceof String) {
      return v.toString();
    }
    if (v instanceof byte[] b) {
      return HexFormat.of().formatHex(b);
    }
    if (v instanceof Map<?, ?> m) {
      StringBuilder s = new StringBuilder("{");
      Iterator<? extends Tuple2<?, ?>> entries = m.iterator();
      boolean first = true;
      while (entries.hasNext()) {
        Tuple2<?, ?> e = entries.next();
        if (!first) {
          s.append(", ");
        }
        first = false;
        s.append(render(e._1())).append('=').append(render(e._2()));
      }
      return s.append('}').toString();
    }
    if (v instanceof Iterable<?> it) {
      StringBuilder s = new StringBuilder("[");
      Iterator<?> items = it.iterator();
      boolean first = true;
      while (items.hasNext()) {
        if (!first) {
          s.append(", ");
        }
        first = false;
        s.append(render(items.next()));
      }
      return s.append(']').toString();
    }
    return v.toString();
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
