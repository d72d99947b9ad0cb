package org.meterstore.interop;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Runs Spark SQL against an {@link InteropStore} in a child JVM: {@code
 * org.meterstore.interop.spark.SparkSqlRunner} from module {@code meterstore-interop-spark}, on
 * that module's classes and runtime classpath ({@code target/spark.classpath}), so that Spark and
 * its Scala, Jackson, Hadoop and Parquet never meet MeterStore's classpath. One call starts one
 * Spark session and runs every statement in order.
 */
final class SparkSql {
  /** Where module {@code meterstore-interop-spark} builds (set by the {@code interop} profile). */
  static final String TARGET_PROPERTY = "meterstore.spark.target";

  /**
   * The child JVM's default time zone ({@code user.timezone}), UTC unless this property names
   * another: the answers must not depend on it (Spark's session time zone is UTC either way).
   */
  static final String TIME_ZONE_PROPERTY = "meterstore.spark.user-timezone";

  /**
   * The flags Spark's own launcher gives a Java 17 JVM: Spark (and Netty, Arrow, Kryo) reach into
   * these JDK internals; without them SparkContext fails on start.
   */
  private static final List<String> JAVA_17_FLAGS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "-Djdk.reflect.useDirectMethodHandle=false",
          "-Dio.netty.tryReflectionSetAccessible=true");

  private SparkSql() {}

  /** One statement's answer: its columns and its rows (cells as the runner printed them). */
  record Result(List<String> columns, List<String> types, List<List<String>> rows) {
    /** The only row. */
    List<String> single() {
      if (rows.size() != 1) {
        throw new AssertionError("expected one row, got " + rows.size() + ": " + rows);
      }
      return rows.get(0);
    }

    /** The cells of column {@code name}, in row order. */
    List<String> column(String name) {
      int i = columns.indexOf(name);
      if (i < 0) {
        throw new AssertionError("no column " + name + " in " + columns);
      }
      List<String> out = new ArrayList<>();
      for (List<String> r : rows) {
        out.add(r.get(i));
      }
      return out;
    }
  }

  /**
   * Runs {@code statements} (name to SQL, in order) in one Spark session against {@code store};
   * {@code dir} holds the request, the answers and the child's log.
   *
   * @throws AssertionError naming the statement and Spark's error when one failed
   */
  static Map<String, Result> run(InteropStore store, Path dir, Map<String, String> statements)
      throws IOException, InterruptedException {
    Path target = sparkTarget();
    Files.createDirectories(dir);
    Path requestFile = dir.resolve("request.properties");
    Path out = dir.resolve("out");
    Path log = dir.resolve("spark.log");
    Properties request = new Properties();
    request.setProperty("catalog.uri", store.db().jdbcUrl());
    request.setProperty("catalog.user", store.db().user());
    request.setProperty("catalog.password", store.db().password());
    request.setProperty("warehouse", store.warehouse().toUri().toString());
    request.setProperty("hot.url", store.db().jdbcUrl());
    request.setProperty("hot.user", store.db().user());
    request.setProperty("hot.password", store.db().password());
    request.setProperty("spark.dir", dir.resolve("spark").toString());
    request.setProperty("statements", String.join(",", statements.keySet()));
    statements.forEach((name, sql) -> request.setProperty("sql." + name, sql));
    try (Writer w = Files.newBufferedWriter(requestFile, StandardCharsets.UTF_8)) {
      request.store(w, "SparkSqlRunner request");
    }

    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.add("-Duser.timezone=" + System.getProperty(TIME_ZONE_PROPERTY, "UTC"));
    command.addAll(JAVA_17_FLAGS);
    command.add("-cp");
    command.add(
        target.resolve("classes")
            + java.io.File.pathSeparator
            + Files.readString(target.resolve("spark.classpath")).trim());
    command.add("org.meterstore.interop.spark.SparkSqlRunner");
    command.add(requestFile.toString());
    command.add(out.toString());
    long started = System.nanoTime();
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // local mode stays on the loopback interface (Spark would otherwise pick the host's address)
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = builder.start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("Spark did not finish in 10 minutes; log " + log);
    }
    String childLog = Files.readString(log);
    System.out.println(
        "Spark child JVM: exit "
            + p.exitValue()
            + " after "
            + (System.nanoTime() - started) / 1_000_000
            + " ms\n"
            + childLog);
    if (p.exitValue() != 0) {
      throw new AssertionError("Spark exited with " + p.exitValue() + ":\n" + childLog);
    }
    Map<String, Result> results = new LinkedHashMap<>();
    for (String name : statements.keySet()) {
      Path error = out.resolve(name + ".error");
      if (Files.exists(error)) {
        throw new AssertionError(
            "Spark failed on "
                + name
                + ":\n"
                + statements.get(name)
                + "\n"
                + Files.readString(error));
      }
      results.put(name, parse(Files.readAllLines(out.resolve(name + ".tsv"))));
    }
    return results;
  }

  /**
   * A fresh directory for {@code testClass}'s Spark run under {@code target/spark-interop}: it
   * keeps the request, every statement's answer and the child's log for inspection after the build.
   */
  static Path workDir(Class<?> testClass) throws IOException {
    Path dir = Path.of("target", "spark-interop", testClass.getSimpleName()).toAbsolutePath();
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    return Files.createDirectories(dir);
  }

  private static Path sparkTarget() {
    String configured = System.getProperty(TARGET_PROPERTY);
    Path target =
        configured != null
            ? Path.of(configured)
            : Path.of(System.getProperty("user.dir"))
                .resolveSibling("meterstore-interop-spark")
                .resolve("target");
    if (!Files.isRegularFile(target.resolve("spark.classpath"))) {
      throw new IllegalStateException(
          "No Spark runner in "
              + target
              + ": build module meterstore-interop-spark first (mvn -Pinterop ... -am)");
    }
    return target;
  }

  private static Result parse(List<String> lines) {
    List<String> columns = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (String cell : cells(lines.get(0))) {
      int colon = cell.indexOf(':');
      columns.add(cell.substring(0, colon));
      types.add(cell.substring(colon + 1));
    }
    List<List<String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      rows.add(cells(line));
    }
    return new Result(columns, types, rows);
  }

  private static List<String> cells(String line) {
    List<String> out = new ArrayList<>();
    for (String raw : line.split("\t", -1)) {
      out.add(raw.equals("\\N") ? null : unescape(raw));
    }
    return out;
  }

  private static String unescape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(++i);
        b.append(
            switch (n) {
              case 't' -> '\t';
              case 'n' -> '\n';
              case 'r' -> '\r';
              default -> n;
            });
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
