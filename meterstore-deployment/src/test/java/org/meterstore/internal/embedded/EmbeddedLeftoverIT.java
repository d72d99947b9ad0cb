package org.meterstore.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a new embedded server finds in its cluster directory from before: the server of a process
 * killed with {@code kill -9} still running (stopped, then the new one starts at once), or a {@code
 * postmaster.pid} whose process is gone (PostgreSQL replaces it) or is now another program
 * (removed: PostgreSQL itself refuses to start beside one naming a live process).
 */
@SuppressWarnings("try") // a server held open only to look at its cluster
class EmbeddedLeftoverIT {
  private static Path root;
  private static final List<Process> children = new ArrayList<>();

  @BeforeAll
  static void freshRoot() throws IOException {
    root = Path.of("target", "embedded-leftover-it").toAbsolutePath();
    if (Files.exists(root)) {
      try (Stream<Path> all = Files.walk(root)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(root);
  }

  @AfterAll
  static void stopChildren() {
    children.forEach(Process::destroyForcibly);
  }

  @Test
  void theServerOfAKilledProcessIsStoppedAndTheNextStartDoesNotWait() throws Exception {
    Path data = root.resolve("killed");
    Process child = startChild(data);
    long orphan = pidIn(data);
    child.destroyForcibly();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive)).contains(true);

    long started = System.nanoTime();
    try (EmbeddedServer server = EmbeddedServer.start(data)) {
      long millis = (System.nanoTime() - started) / 1_000_000;
      System.out.println("start after kill -9 took " + millis + " ms");
      assertThat(millis).isLessThan(9_000);
      assertThat(pidIn(data)).isNotEqualTo(orphan);
      assertThat(isGone(orphan)).isTrue();
    }
  }

  @Test
  void aPidFileNamingAnotherLiveProgramIsRemoved() throws Exception {
    Path data = root.resolve("reused");
    EmbeddedServer.start(data).close();
    // this JVM is alive and no postgres: a pid that another program got after a crash
    writePidFile(data, ProcessHandle.current().pid());
    try (EmbeddedServer server = EmbeddedServer.start(data)) {
      assertThat(pidIn(data)).isNotEqualTo(ProcessHandle.current().pid());
    }
  }

  @Test
  void aPidFileWhoseProcessIsGoneIsNoObstacle() throws Exception {
    Path data = root.resolve("gone");
    EmbeddedServer.start(data).close();
    Process finished = new ProcessBuilder("true").start();
    assertThat(finished.waitFor(30, TimeUnit.SECONDS)).isTrue();
    writePidFile(data, finished.pid());
    try (EmbeddedServer server = EmbeddedServer.start(data)) {
      assertThat(pidIn(data)).isNotEqualTo(finished.pid());
    }
  }

  private static Process startChild(Path data) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx128m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ServerChild.class.getName());
    command.add(data.toString());
    Files.createDirectories(root);
    Process p =
        new ProcessBuilder(command).redirectError(root.resolve("child.err").toFile()).start();
    children.add(p);
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line = r.readLine();
      assertThat(line).as("the child's first line").startsWith("UP ");
    }
    return p;
  }

  private static long pidIn(Path data) throws IOException {
    return Long.parseLong(Files.readAllLines(data.resolve("pg/postmaster.pid")).get(0).trim());
  }

  private static void writePidFile(Path data, long pid) throws IOException {
    Path cluster = data.resolve("pg");
    Files.writeString(
        cluster.resolve("postmaster.pid"),
        pid + "\n" + cluster + "\n1796189007\n5432\n\n127.0.0.1\n  1 2\nready   \n",
        StandardCharsets.UTF_8);
  }

  private static boolean isGone(long pid) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      if (!LeftoverServer.Facts.of(pid).alive()) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }
}
