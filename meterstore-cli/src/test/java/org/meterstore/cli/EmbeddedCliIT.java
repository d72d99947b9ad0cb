package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The real command on the embedded default, in child JVMs: a {@code maintain} killed with {@code
 * kill -9} leaves its PostgreSQL running (the server is a daemon of its own), and the next command
 * must find and stop that server instead of waiting for its own to start. {@code status} says how a
 * second process reaches the server of the one that has the store open, never with the password.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedCliIT {
  private static final String NOW = "2026-03-10T00:00:00Z";
  private static Path dir;
  private static Path config;
  private static Path pgDir;

  @BeforeAll
  static void freshStore() throws IOException {
    dir = Path.of("target", "embedded-cli-it").toAbsolutePath();
    if (Files.exists(dir)) {
      try (Stream<Path> all = Files.walk(dir)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(dir);
    config = dir.resolve("meterstore.toml");
    pgDir = dir.resolve("data").resolve("pg");
    Files.writeString(
        config,
        "data_dir = \"data\"\n\n[[tables]]\nname = \"strom\"\nsettlement_lag = \"2d\"\n",
        StandardCharsets.UTF_8);
  }

  @Test
  @Order(1)
  void theCommandAfterAKilledMaintainSucceedsAtOnceAndLeavesNoServerBehind() throws Exception {
    try (ChildCli create = ChildCli.start(config, "create", "create", "--now", NOW)) {
      assertThat(create.exit(180)).as(create.toString()).isZero();
    }
    long orphan;
    try (ChildCli maintain = ChildCli.start(config, "maintain", "maintain", "--interval", "1h")) {
      maintain.awaitErr("maintenance loop started", 180);
      orphan = postmasterPid();
      maintain.kill();
    }
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive))
        .as("the killed command's PostgreSQL outlives it")
        .contains(true);

    long started = System.nanoTime();
    int code;
    String shown;
    try (ChildCli status = ChildCli.start(config, "status", "status", "--now", NOW)) {
      code = status.exit(180);
      shown = status.toString();
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    System.out.println("status after kill -9 of maintain took " + millis + " ms");
    assertThat(code).as(shown).isZero();
    assertThat(shown).doesNotContain("Gave up waiting");
    assertThat(gone(orphan)).as("the server left by the killed process is stopped").isTrue();
    assertThat(serversOf(pgDir)).as("postgres processes of " + pgDir).isEmpty();
    assertThat(pgDir.resolve("postmaster.pid")).doesNotExist();
    String password = Files.readAllLines(dir.resolve("data/pg-password")).get(0);
    assertThat(shown).contains("jdbc:postgresql://127.0.0.1:").doesNotContain(password);
  }

  @Test
  @Order(2)
  void aSecondProcessReachesTheEmbeddedServerWithWhatStatusSays() throws Exception {
    Cli.Run status = new Cli(config).run("--format", "json", "status", "--now", NOW);
    assertThat(status.code()).as(status.toString()).isZero();
    JsonNode embedded = status.json().get("embedded");
    String url = embedded.get("jdbc_url").asText();
    int port = Integer.parseInt(Files.readString(dir.resolve("data/pg-port")).strip());
    assertThat(url).isEqualTo("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
    assertThat(embedded.get("user").asText()).isEqualTo("postgres");
    Path passwordFile = Path.of(embedded.get("password_file").asText());
    assertThat(passwordFile).isEqualTo(dir.resolve("data/pg-password"));
    String password = Files.readAllLines(passwordFile).get(0);
    assertThat(status.out() + status.err()).doesNotContain(password);

    try (ChildCli maintain = ChildCli.start(config, "maintain2", "maintain", "--interval", "1h")) {
      maintain.awaitErr("cycle at ", 180); // the first cycle is done: nothing in flight at SIGTERM
      Path second = dir.resolve("second.toml");
      Files.writeString(
          second,
          "[hot]\nurl = \""
              + url
              + "\"\nuser = \"postgres\"\npassword = \""
              + password
              + "\"\n[cold]\nwarehouse = \""
              + dir.resolve("data/warehouse").toUri()
              + "\"\n\n[[tables]]\nname = \"strom\"\nsettlement_lag = \"2d\"\n",
          StandardCharsets.UTF_8);
      Cli.Run other = new Cli(second).run("--format", "json", "status", "--now", NOW);
      assertThat(other.code()).as(other.toString()).isZero();
      assertThat(other.json().get("healthy").asBoolean()).isTrue();
      assertThat(other.json().has("embedded")).isFalse();
      assertThat(maintain.stop(60)).as(maintain.toString()).isEqualTo(128 + 15);
      assertThat(maintain.out() + maintain.err()).doesNotContain(password);
    }
    assertThat(serversOf(pgDir)).isEmpty();
  }

  /** Whatever a failed run left running is stopped, so it does not outlive the build. */
  @AfterAll
  static void stopLeftovers() throws IOException {
    serversOf(pgDir).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy));
  }

  private static long postmasterPid() throws IOException {
    List<String> lines = Files.readAllLines(pgDir.resolve("postmaster.pid"));
    return Long.parseLong(lines.get(0).trim());
  }

  /** Whether {@code pid} has exited (a zombie that nobody reaps counts as exited). */
  static boolean gone(long pid) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) || zombie(pid)) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  /** The live processes whose working directory is {@code cluster} (postgres runs in it). */
  static List<Long> serversOf(Path cluster) throws IOException {
    Path real = cluster.toRealPath();
    try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
      return all.map(ProcessHandle::pid).filter(pid -> inDirectory(pid, real)).toList();
    }
  }

  private static boolean inDirectory(long pid, Path dir) {
    try {
      return !zombie(pid) && Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd")).equals(dir);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
