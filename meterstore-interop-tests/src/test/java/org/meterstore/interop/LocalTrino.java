package org.meterstore.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.meterstore.testing.TestDatabase;

/**
 * A single-node Trino server (coordinator and worker in one) in a child process, started from the
 * unpacked {@code trino-server} tarball on a JDK 24 or newer, with two catalogs over one MeterStore
 * deployment: {@code meterstore} (the Iceberg connector on MeterStore's JDBC catalog, local {@code
 * file:} warehouse) and {@code hot} (the PostgreSQL connector on the hot tier's database) — the
 * names MeterStore's published SQL uses.
 *
 * <p>Where things come from: the server from system property {@code trino.home} (an unpacked
 * server) or else from the tarball {@code trino.tarball} names (the {@code interop} profile
 * resolves it from Maven Central), unpacked by {@link TrinoDistribution} into {@code target/trino};
 * the JDK from {@code trino.java.home}, else environment variable {@code TRINO_JAVA_HOME}, else the
 * newest JDK 24+ under {@code /usr/lib/jvm}. {@link #close} stops the process; a shutdown hook
 * stops it too if the test JVM exits first.
 */
final class LocalTrino implements AutoCloseable {
  /**
   * The plugins the server loads; every other plugin only slows the start. The PostgreSQL connector
   * of Trino 476 needs the geospatial plugin's {@code Geometry} type (for PostGIS columns) even
   * where there are none: without it the catalog fails with "Unknown type: Geometry".
   */
  static final List<String> PLUGINS = List.of("iceberg", "postgresql", "geospatial");

  private static final int MIN_JAVA = 24;
  private static final int START_TIMEOUT_MINUTES = 4;

  private final Path base;
  private final Process process;
  private final Thread shutdownHook;
  private final int port;
  private final Path log;
  private final long startedNanos;
  private Duration startup;

  private LocalTrino(
      Path base, Process process, Thread shutdownHook, int port, Path log, long startedNanos) {
    this.base = base;
    this.process = process;
    this.shutdownHook = shutdownHook;
    this.port = port;
    this.log = log;
    this.startedNanos = startedNanos;
  }

  /**
   * The catalog files for the deployment on {@code db} with its warehouse in {@code warehouse}:
   * file name to content. These are the files docs/interop.md shows; only the connection values
   * differ from deployment to deployment.
   */
  static Map<String, String> catalogs(TestDatabase db, Path warehouse) {
    String url = db.jdbcUrl();
    String user = db.user();
    String password = db.password();
    Map<String, String> files = new LinkedHashMap<>();
    files.put(
        "meterstore.properties",
        lines(
            "connector.name=iceberg",
            "iceberg.catalog.type=jdbc",
            "iceberg.jdbc-catalog.catalog-name=meterstore",
            "iceberg.jdbc-catalog.schema-version=V1",
            "iceberg.jdbc-catalog.driver-class=org.postgresql.Driver",
            "iceberg.jdbc-catalog.connection-url=" + value(url),
            "iceberg.jdbc-catalog.connection-user=" + value(user),
            "iceberg.jdbc-catalog.connection-password=" + value(password),
            "iceberg.jdbc-catalog.default-warehouse-dir=" + value(warehouse.toUri().toString()),
            "iceberg.security=read_only",
            "fs.hadoop.enabled=false",
            "fs.native-local.enabled=true",
            "local.location=/"));
    files.put(
        "hot.properties",
        lines(
            "connector.name=postgresql",
            "connection-url=" + value(url),
            "connection-user=" + value(user),
            "connection-password=" + value(password)));
    return files;
  }

  /**
   * Starts a server with {@link #catalogs} for the deployment on {@code db} with its warehouse in
   * {@code warehouse}, and returns at once: the server starts while the caller builds the
   * deployment (Trino's catalogs connect only when queried), and {@link #awaitActive} waits for it.
   * Its files live under {@code base}.
   */
  static LocalTrino launch(TestDatabase db, Path warehouse, Path base) throws IOException {
    Path home = home();
    Path java = java().resolve("bin").resolve("java");
    int port = freePort();
    Path etc = Files.createDirectories(base.resolve("etc"));
    Path catalogDir = Files.createDirectories(etc.resolve("catalog"));
    Path plugins = Files.createDirectories(base.resolve("plugin"));
    for (String plugin : PLUGINS) {
      Path dir = home.resolve("plugin").resolve(plugin);
      if (!Files.isDirectory(dir)) {
        throw new IllegalStateException("Trino plugin missing: " + dir);
      }
      Files.createSymbolicLink(plugins.resolve(plugin), dir);
    }
    // One file: node.properties (and its node.data-dir, the working directory) belong to Trino's
    // launcher, which this does not use.
    Files.writeString(
        etc.resolve("config.properties"),
        lines(
            "node.environment=interop",
            "node.id=meterstore-interop",
            "node.internal-address=127.0.0.1",
            "coordinator=true",
            "node-scheduler.include-coordinator=true",
            "http-server.http.port=" + port,
            "discovery.uri=http://127.0.0.1:" + port,
            "plugin.dir=" + value(plugins.toString()),
            "catalog.config-dir=" + value(catalogDir.toString()),
            "query.max-memory=1GB",
            "query.max-memory-per-node=1GB"));
    for (Map.Entry<String, String> f : catalogs(db, warehouse).entrySet()) {
      Files.writeString(catalogDir.resolve(f.getKey()), f.getValue());
    }
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(jvmFlags());
    command.add("-Dconfig=" + etc.resolve("config.properties"));
    command.add("-cp");
    command.add(home.resolve("lib") + "/*");
    command.add("io.trino.server.TrinoServer");
    Files.writeString(etc.resolve("command.txt"), String.join(" ", command) + "\n");
    Path log = base.resolve("server.log");
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .directory(base.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Thread hook = new Thread(() -> stop(process), "stop-trino");
    Runtime.getRuntime().addShutdownHook(hook);
    return new LocalTrino(base, process, hook, port, log, started);
  }

  /** The flags the server's JVM runs with (Trino's recommended ones, sized for a test). */
  static List<String> jvmFlags() {
    return List.of(
        "-Xmx2G",
        "-XX:+UseG1GC",
        "-XX:+ExitOnOutOfMemoryError",
        "-XX:-OmitStackTraceInFastThrow",
        "-XX:+EnableDynamicAgentLoading",
        "-Djdk.attach.allowAttachSelf=true",
        "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow",
        "-Dfile.encoding=UTF-8",
        "-Duser.timezone=UTC");
  }

  /** A connection of the Trino JDBC driver, session time zone UTC. */
  Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "meterstore");
    p.setProperty("timezone", "UTC");
    return DriverManager.getConnection("jdbc:trino://127.0.0.1:" + port, p);
  }

  /** From the launch to the first answered query (after {@link #awaitActive}). */
  Duration startup() {
    return startup;
  }

  /** The server's resident memory in KiB, from {@code /proc} (empty where there is none). */
  Optional<Long> residentKib() {
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Optional.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: not Linux, or the process is gone
    }
    return Optional.empty();
  }

  Path base() {
    return base;
  }

  Path log() {
    return log;
  }

  /**
   * Waits until the server answers a query with one active node, at most {@value
   * #START_TIMEOUT_MINUTES} minutes from its launch. On failure the server is stopped and its log
   * kept in {@code target/trino-logs}.
   */
  void awaitActive() throws IOException, InterruptedException {
    try {
      awaitActiveNode();
      startup = Duration.ofNanos(System.nanoTime() - startedNanos);
    } catch (IOException | InterruptedException | RuntimeException e) {
      close();
      Path kept = Path.of("target", "trino-logs").toAbsolutePath();
      Files.createDirectories(kept);
      kept = kept.resolve("server-failed-" + System.currentTimeMillis() + ".log");
      Files.copy(log, kept);
      e.addSuppressed(new IllegalStateException("the whole server log: " + kept));
      throw e;
    }
  }

  /**
   * Whether the scheduler hands out splits yet: an active coordinator still answers "No nodes
   * available to run query" for a while after start-up, so a query whose scan runs on a worker (the
   * hot catalog's registry of MeterStore tables) must get through first.
   */
  private static boolean schedules(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM hot.meterstore.tables")) {
      return rs.next();
    } catch (SQLException e) {
      if (String.valueOf(e.getMessage()).contains("No nodes available")) {
        return false;
      }
      throw e;
    }
  }

  private void awaitActiveNode() throws IOException, InterruptedException {
    long deadline = startedNanos + Duration.ofMinutes(START_TIMEOUT_MINUTES).toNanos();
    SQLException last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Trino exited with " + process.exitValue() + " during start-up:\n" + tail());
      }
      try (Connection c = connect();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'"
                      + " AND coordinator")) {
        if (rs.next() && rs.getLong(1) == 1 && schedules(c)) {
          return;
        }
      } catch (SQLException e) {
        last = e;
      }
      Thread.sleep(500);
    }
    IllegalStateException e =
        new IllegalStateException(
            "Trino did not answer within " + START_TIMEOUT_MINUTES + " min:\n" + tail());
    if (last != null) {
      e.addSuppressed(last);
    }
    throw e;
  }

  /** The start-up time the server logs itself ({@code Server startup completed in …}). */
  Optional<String> loggedStartup() throws IOException {
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      int at = line.indexOf("Server startup completed in ");
      if (at >= 0) {
        return Optional.of(line.substring(at + "Server startup completed in ".length()).trim());
      }
    }
    return Optional.empty();
  }

  /** The last lines of the server log, for failure messages. */
  String tail() throws IOException {
    if (!Files.exists(log)) {
      return "(no log)";
    }
    List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", all.subList(Math.max(0, all.size() - 60), all.size()));
  }

  @Override
  public void close() {
    stop(process);
    for (String plugin : PLUGINS) {
      try {
        Files.deleteIfExists(base.resolve("plugin").resolve(plugin));
      } catch (IOException e) {
        // left for the temporary folder's clean-up
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook runs anyway
    }
  }

  private static void stop(Process process) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static Path home() throws IOException {
    String configured = System.getProperty("trino.home");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String tarball = System.getProperty("trino.tarball");
    if (tarball == null || tarball.isBlank() || !Files.isRegularFile(Path.of(tarball))) {
      throw new IllegalStateException(
          "No Trino server: run with -Pinterop (it resolves the tarball) or set -Dtrino.home;"
              + " trino.tarball="
              + tarball);
    }
    long t0 = System.nanoTime();
    Path home =
        TrinoDistribution.unpack(
            Path.of(tarball), Path.of("target", "trino").toAbsolutePath(), PLUGINS);
    System.out.printf("Trino server at %s (%d ms)%n", home, (System.nanoTime() - t0) / 1_000_000);
    return home;
  }

  /** A JDK that can run Trino (24+), see the class comment. */
  static Path java() throws IOException {
    String configured = System.getProperty("trino.java.home");
    if (configured == null || configured.isBlank()) {
      configured = System.getenv("TRINO_JAVA_HOME");
    }
    if (configured != null && !configured.isBlank()) {
      Path jdk = Path.of(configured);
      int major = javaMajor(jdk);
      if (major < MIN_JAVA) {
        throw new IllegalStateException(
            "Trino needs Java " + MIN_JAVA + "+, " + jdk + " is Java " + major);
      }
      return jdk;
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (Stream<Path> dirs = Files.list(jvms)) {
        Optional<Path> best =
            dirs.filter(d -> Files.isExecutable(d.resolve("bin").resolve("java")))
                .filter(d -> javaMajor(d) >= MIN_JAVA)
                .max((a, b) -> Integer.compare(javaMajor(a), javaMajor(b)));
        if (best.isPresent()) {
          return best.get();
        }
      }
    }
    throw new IllegalStateException(
        "Trino needs a JDK "
            + MIN_JAVA
            + "+: set -Dtrino.java.home or TRINO_JAVA_HOME (none found in /usr/lib/jvm)");
  }

  /** The major version a JDK's {@code release} file names, or 0. */
  private static int javaMajor(Path jdk) {
    try {
      for (String line : Files.readAllLines(jdk.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          String major = v.split("[.+-]")[0];
          return Integer.parseInt(major.equals("1") ? v.split("\\.")[1] : major);
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A properties-file value as is: test values never need escaping, so refuse those that do. */
  private static String value(String v) {
    if (v.contains("\\") || v.contains("\n") || v.contains("\r")) {
      throw new IllegalArgumentException("value needs escaping in a properties file: " + v);
    }
    return v;
  }

  private static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }
}
