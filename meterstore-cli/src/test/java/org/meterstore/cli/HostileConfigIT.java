package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The hostile-configuration list (issue #19): configurations that carry a secret where it can leak
 * — in a URL's user info, in {@code password=} / {@code sslpassword=} parameters, libpq URLs and
 * key-value strings, Iceberg's catalog URI, S3 keys and endpoints, erasure keys, a TOML syntax
 * error on the secret's line, a secret in the wrong key or of the wrong type — each run through the
 * real command ({@code check}, {@code status --format json}, {@code --verbose check}). Every run
 * must fail with exit 1 or 75 and one {@code meterstore:} line, and the secret must appear nowhere:
 * not on standard output, not on standard error, not in a log line, not in a {@code --verbose}
 * stack trace. Without {@code --verbose} there is no stack trace and no Java record dump.
 * Configurations whose secret comes from {@code ${ENV}} run in a child JVM, where the environment
 * can be set, and with {@code --verbose} there the INFO log lines are checked too.
 */
@ExtendWith(PostgresExtension.class)
class HostileConfigIT {
  static final String SECRET = "Zq7-hostile-SECRET-4k";
  static final String CLOSED = "127.0.0.1:1";
  static final String ENCODED =
      java.util.Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8));

  private static Path dir;
  private static TestDatabase db;

  @BeforeAll
  static void directory(TestDatabase database) throws IOException {
    db = database;
    dir =
        Files.createDirectories(
                Path.of("target", "hostile-config-it", "run-" + ProcessHandle.current().pid()))
            .toAbsolutePath();
  }

  /** A configuration under test: its name, its TOML, and the verbs to run it with. */
  record Hostile(String name, String toml) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Hostile> literalConfigs() {
    String real = "127.0.0.1:" + port();
    List<Hostile> h = new ArrayList<>();
    h.add(
        hot(
            "url user info, closed port",
            "url = \"jdbc:postgresql://meter:{S}@" + CLOSED + "/m\""));
    h.add(
        hot(
            "url ?password=, closed port",
            "url = \"jdbc:postgresql://" + CLOSED + "/m?password={S}\""));
    h.add(
        hot(
            "url &password= after user",
            "url = \"jdbc:postgresql://" + CLOSED + "/m?user=meter&password={S}&ssl=false\""));
    h.add(hot("url ;password=", "url = \"jdbc:postgresql://" + CLOSED + "/m;password={S}\""));
    h.add(hot("url sslpassword=", "url = \"jdbc:postgresql://" + CLOSED + "/m?sslpassword={S}\""));
    h.add(
        hot(
            "url PASSWORD= in capitals",
            "url = \"jdbc:postgresql://" + CLOSED + "/m?PASSWORD={S}\""));
    h.add(
        hot(
            "url user info, percent-encoded",
            "url = \"jdbc:postgresql://meter:{S}%21%40@" + CLOSED + "/m\""));
    h.add(hot("libpq url", "url = \"postgresql://meter:{S}@" + CLOSED + "/m\""));
    h.add(hot("libpq url postgres://", "url = \"postgres://meter:{S}@" + CLOSED + "/m\""));
    h.add(
        hot(
            "libpq key-value string",
            "url = \"host=127.0.0.1 port=1 user=meter password={S} dbname=m\""));
    h.add(hot("unparseable url with user info", "url = \"jdbc:postgresql://meter:{S}@[::1/m\""));
    h.add(hot("url with a space in the host", "url = \"jdbc:postgresql://meter:{S}@db host/m\""));
    h.add(hot("url of another driver", "url = \"jdbc:mysql://meter:{S}@" + CLOSED + "/m\""));
    h.add(
        hot("url with a newline", "url = \"jdbc:postgresql://meter:{S}@" + CLOSED + "/m\\n?x=1\""));
    h.add(
        hot(
            "url of 5000 characters",
            "url = \"jdbc:postgresql://meter:{S}@" + CLOSED + "/" + "a".repeat(5000) + "\""));
    h.add(
        hot("url with a unicode host", "url = \"jdbc:postgresql://meter:{S}@zähler.example:1/m\""));
    // issue #38: a secret pasted into a key whose value then fails to parse
    h.add(hot("a secret as the whole url", "url = \"{S}\""));
    h.add(hot("not a url, a secret in it", "url = \"not a url {S}\""));
    h.add(hot("a secret as the pool size", "pool_size = \"{S}\""));
    h.add(hot("a secret as the ddl lock timeout", "ddl_lock_timeout = \"{S}\""));
    h.add(cold("a secret as the rest catalog uri", "catalog = \"rest\"\nuri = \"{S}\""));
    h.add(cold("a secret as the catalog kind", "catalog = \"{S}\""));
    h.add(
        hot(
            "password, closed port",
            "url = \"jdbc:postgresql://" + CLOSED + "/m\"\npassword = \"{S}\""));
    h.add(
        hot(
            "password, unknown role at a real server",
            "url = \"jdbc:postgresql://"
                + real
                + "/postgres\"\nuser = \"nobody\"\npassword = \"{S}\""));
    h.add(
        hot(
            "url password=, unknown role at a real server",
            "url = \"jdbc:postgresql://" + real + "/postgres?user=nobody&password={S}\""));
    h.add(
        hot(
            "url user info at a real server",
            "url = \"jdbc:postgresql://nobody:{S}@" + real + "/postgres\""));
    h.add(
        hot(
            "url naming a database that does not exist",
            "url = \"jdbc:postgresql://" + real + "/no_such_db?password={S}\""));
    h.add(
        hot(
            "password as an array",
            "url = \"jdbc:postgresql://" + CLOSED + "/m\"\npassword = [\"{S}\"]"));
    h.add(
        hot(
            "password as an inline table",
            "url = \"jdbc:postgresql://" + CLOSED + "/m\"\npassword = { v = \"{S}\" }"));
    h.add(raw("unterminated string on the password line", "[hot]\npassword = \"{S}\n"));
    h.add(raw("password key twice", "[hot]\npassword = \"{S}\"\npassword = \"{S}\"\n" + rest()));
    h.add(raw("password in a misspelt key", "[hot]\npasword = \"{S}\"\n" + rest()));
    h.add(raw("password outside any section", "password = \"{S}\"\n[hot]\n" + rest()));
    h.add(raw("a TOML error after the secret", "[hot]\npassword = \"{S}\"\nurl = = \"x\"\n"));
    h.add(
        cold(
            "cold uri user info, closed port",
            "uri = \"jdbc:postgresql://meter:{S}@" + CLOSED + "/m\""));
    h.add(
        cold(
            "cold uri ?password=, closed port",
            "uri = \"jdbc:postgresql://" + CLOSED + "/m?password={S}\""));
    h.add(
        cold(
            "cold password, closed port",
            "uri = \"jdbc:postgresql://" + CLOSED + "/m\"\nuser = \"meter\"\npassword = \"{S}\""));
    h.add(cold("cold libpq uri", "uri = \"postgresql://meter:{S}@" + CLOSED + "/m\""));
    h.add(
        cold(
            "cold uri user info at a real server",
            "uri = \"jdbc:postgresql://nobody:{S}@" + real + "/postgres\""));
    h.add(
        cold(
            "rest catalog uri with user info",
            "catalog = \"rest\"\nuri = \"http://meter:{S}@" + CLOSED + "/api/catalog\""));
    h.add(
        cold(
            "rest catalog uri with a token parameter",
            "catalog = \"rest\"\nuri = \"http://" + CLOSED + "/api?token={S}&password={S}\""));
    h.add(
        s3(
            "s3 secret with an unparseable endpoint",
            "endpoint = \"http://k:{S}@minio:9000/a b\"\naccess_key_id = \"k\"\n"
                + "secret_access_key = \"{S}\""));
    h.add(
        s3(
            "s3 endpoint user info, no region",
            "endpoint = \"http://k:{S}@"
                + CLOSED
                + "\"\naccess_key_id = \"k\"\nsecret_access_key = \"{S}\"",
            false));
    h.add(s3("s3 secret without an access key id", "region = \"eu\"\nsecret_access_key = \"{S}\""));
    h.add(
        s3(
            "s3 secret in a misspelt key",
            "region = \"eu\"\naccess_key_id = \"k\"\nsecret_key = \"{S}\""));
    // issue #38: a secret pasted into a key a table's own rules refuse
    h.add(table("a secret as a table name", "name = \"{S}\""));
    h.add(table("a secret as the resolution", "resolution = \"{S}\""));
    h.add(table("a secret as the subject column", "subject_column = \"{S}\""));
    h.add(
        table(
            "a secret as a column name",
            "[[tables.extra_columns]]\nname = \"{S}\"\nrole = \"attribute\""));
    h.add(
        table(
            "a secret among a coded column's values",
            "[[tables.extra_columns]]\nname = \"tarif\"\nrole = \"coded\"\nvalues = [\"HT\", \"{S}'\"]"));
    h.add(erasure("erasure key that is not base64", "k1 = \"{S}\""));
    h.add(erasure("erasure key of the wrong length", "k1 = \"" + ENCODED + "\""));
    return h;
  }

  /** Configurations whose secret arrives through {@code ${PW}}: run in a child JVM. */
  static List<Hostile> environmentConfigs() {
    List<Hostile> h = new ArrayList<>();
    h.add(
        hot(
            "password from ${PW}, closed port",
            "url = \"jdbc:postgresql://" + CLOSED + "/m\"\npassword = \"${PW}\""));
    h.add(
        hot(
            "${PW} in a duration key",
            "url = \"jdbc:postgresql://" + CLOSED + "/m\"\nddl_lock_timeout = \"${PW}\""));
    h.add(hot("${PW} in detach_mode", "detach_mode = \"${PW}\""));
    h.add(hot("${PW} inside the url", "url = \"jdbc:postgresql://meter:${PW}@" + CLOSED + "/m\""));
    h.add(
        cold(
            "cold password from ${PW}",
            "uri = \"jdbc:postgresql://" + CLOSED + "/m\"\npassword = \"${PW}\""));
    h.add(
        s3(
            "s3 secret from ${PW}, unparseable endpoint",
            "endpoint = \"http://minio:9000/a b\"\naccess_key_id = \"k\"\nsecret_access_key = \"${PW}\""));
    h.add(erasure("erasure key from ${PW}", "k1 = \"${PW}\""));
    h.add(
        raw(
            "${PW} as a table name",
            "[hot]\n" + rest().replace("name = \"strom\"", "name = \"${PW}\"")));
    return h;
  }

  static Stream<Arguments> inProcess() {
    List<Arguments> runs = new ArrayList<>();
    for (Hostile config : literalConfigs()) {
      runs.add(Arguments.of(config, List.of("check")));
      runs.add(Arguments.of(config, List.of("--format", "json", "status")));
      runs.add(Arguments.of(config, List.of("--verbose", "check")));
    }
    return runs.stream();
  }

  static Stream<Arguments> childProcess() {
    List<Arguments> runs = new ArrayList<>();
    for (Hostile config : environmentConfigs()) {
      runs.add(Arguments.of(config, List.of("check")));
      runs.add(Arguments.of(config, List.of("--verbose", "status")));
    }
    return runs.stream();
  }

  @Test
  void theListIsLongEnough() {
    assertThat(inProcess().count() + childProcess().count()).isGreaterThanOrEqualTo(80);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("inProcess")
  void noSecretInAnyOutput(Hostile config, List<String> verb) throws IOException {
    Path file = write(config);
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream err = System.err;
    Cli.Run run;
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try {
      List<String> args = new ArrayList<>(List.of("--config", file.toString()));
      args.addAll(verb);
      run = Cli.raw("", args.toArray(String[]::new));
    } finally {
      System.setErr(err);
    }
    String logged = log.toString(StandardCharsets.UTF_8);
    assertFailedCleanly(run.code(), run.out(), run.err(), logged, verb.contains("--verbose"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("childProcess")
  void noSecretInAnyOutputOfARealProcess(Hostile config, List<String> verb) throws Exception {
    Path file = write(config);
    try (ChildCli child =
        ChildCli.start(file, "child", Map.of("PW", SECRET), verb.toArray(String[]::new))) {
      int code = child.exit(60);
      assertFailedCleanly(code, child.out(), child.err(), "", verb.contains("--verbose"));
    }
  }

  /**
   * A configuration that opens, its password from {@code ${PW}}, run with {@code --verbose} in a
   * real process: the INFO lines describe the deployment in words, with no record and no secret.
   */
  @Test
  void aVerboseRunThatOpensTheStoreLogsNoRecordAndNoSecret() throws Exception {
    Hostile config = hot("opens", "password = \"${PW}\"");
    try (ChildCli child =
        ChildCli.start(write(config), "opens", Map.of("PW", SECRET), "--verbose", "status")) {
      int code = child.exit(60);
      String all = child.out() + child.err();
      assertThat(code).as(all).isIn(ExitCode.OK, ExitCode.ERROR);
      assertThat(all)
          .contains("Opened MeterStore deployment: hot tier jdbc:postgresql://")
          .contains("cold tier jdbc catalog in the hot database")
          .doesNotContain(SECRET, "Section[", "password=null", "HotConfig[");
    }
  }

  private static void assertFailedCleanly(
      int code, String out, String err, String logged, boolean verbose) {
    String all = out + "\n" + err + "\n" + logged;
    assertThat(code).as(all).isIn(ExitCode.ERROR, ExitCode.RETRYABLE);
    assertThat(all).as("no secret anywhere").doesNotContain(SECRET);
    assertThat(all).as("no part of the secret").doesNotContain("Zq7-hostile");
    assertThat(all).as("not even encoded").doesNotContain(ENCODED);
    assertThat(err).as(all).contains("meterstore: ");
    assertThat(all)
        .as("no record dump")
        .doesNotContain("HotConfig[", "ColdConfig[", "S3Config[", "Section[", "password=null");
    if (!verbose) {
      assertThat(err).as("no stack trace without --verbose").doesNotContain("\tat ");
      assertThat(err.lines().filter(l -> l.startsWith("meterstore: ")).count()).isEqualTo(1);
    }
  }

  // ------------------------------------------------------------------ building configurations

  private static Path write(Hostile config) throws IOException {
    Path file = dir.resolve(config.name().replaceAll("[^a-zA-Z0-9]+", "_") + ".toml");
    Files.writeString(file, config.toml().replace("{S}", SECRET), StandardCharsets.UTF_8);
    return file;
  }

  private static Hostile hot(String name, String lines) {
    boolean hasUrl = lines.contains("url =");
    String hot =
        (hasUrl ? "" : "url = \"" + db.jdbcUrl() + "\"\nuser = \"" + db.user() + "\"\n") + lines;
    return new Hostile(name, "[hot]\n" + hot + "\n" + rest());
  }

  private static Hostile cold(String name, String lines) {
    return new Hostile(name, hotSection() + rest().replace("[cold]\n", "[cold]\n" + lines + "\n"));
  }

  private static Hostile s3(String name, String lines) {
    return s3(name, lines, true);
  }

  private static Hostile s3(String name, String lines, boolean withRegion) {
    String s3 =
        "[cold.s3]\n"
            + (withRegion && !lines.contains("region") ? "region = \"eu\"\n" : "")
            + lines
            + "\n";
    String body =
        rest()
            .replace("warehouse = \"" + warehouse() + "\"", "warehouse = \"s3://meters/warehouse\"")
            .replace("[privacy]", s3 + "[privacy]");
    return new Hostile(name, hotSection() + body);
  }

  private static Hostile erasure(String name, String keyLine) {
    String body =
        rest().replaceAll("k1 = \"[^\"]*\"", java.util.regex.Matcher.quoteReplacement(keyLine));
    return new Hostile(name, hotSection() + body);
  }

  /** {@code lines} replace the one table's name, or follow its keys. */
  private static Hostile table(String name, String lines) {
    String body =
        lines.startsWith("name =")
            ? rest().replace("name = \"strom\"", lines)
            : rest() + lines + "\n";
    return new Hostile(name, hotSection() + body);
  }

  private static Hostile raw(String name, String toml) {
    return new Hostile(name, toml);
  }

  private static String hotSection() {
    return "[hot]\nurl = \"" + db.jdbcUrl() + "\"\nuser = \"" + db.user() + "\"\n";
  }

  /** Everything after the [hot] keys: cold, privacy and one table. */
  private static String rest() {
    return "ddl_lock_timeout = \"1s\"\n"
        + "[cold]\n"
        + "warehouse = \""
        + warehouse()
        + "\"\n"
        + "[privacy]\n"
        + "[privacy.erasure_keys]\n"
        + "k1 = \""
        + java.util.Base64.getEncoder().encodeToString(new byte[32])
        + "\"\n"
        + "[[tables]]\n"
        + "name = \"strom\"\n"
        + "settlement_lag = \"2d\"\n";
  }

  private static String warehouse() {
    return dir.resolve("warehouse").toUri().toString();
  }

  private static int port() {
    return java.net.URI.create(db.jdbcUrl().substring("jdbc:".length())).getPort();
  }
}
