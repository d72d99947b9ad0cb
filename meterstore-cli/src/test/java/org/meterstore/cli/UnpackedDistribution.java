package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The tar.gz that {@code mvn package} built, unpacked into a fresh folder under {@code target/},
 * whose launcher runs in child processes with nothing on the class path but the distribution's
 * {@code lib/} (environment: {@code PATH}, {@code JAVA_HOME}, {@code JAVA_OPTS} and what a test
 * adds). {@link #libClassPath()} gives the same jars for a class loader of their own.
 */
final class UnpackedDistribution {
  private static final String VERSION = System.getProperty("meterstore.version");
  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
  private static final long TIMEOUT_SECONDS = 180;

  final Path dir;
  final Path home;

  private UnpackedDistribution(Path dir, Path home) {
    this.dir = dir;
    this.home = home;
  }

  /** Unpacks the distribution into {@code target/<name>/run-<pid>}. */
  static UnpackedDistribution unpack(String name) throws Exception {
    Path tarGz = Path.of(System.getProperty("meterstore.distribution"));
    assertThat(tarGz).as("built by mvn package").isRegularFile();
    Path dir =
        Files.createDirectories(Path.of("target", name, "run-" + ProcessHandle.current().pid()))
            .toAbsolutePath();
    UnpackedDistribution d = new UnpackedDistribution(dir, dir.resolve("meterstore-" + VERSION));
    Run untar =
        d.run(dir, Map.of(), List.of("tar", "-xzf", tarGz.toAbsolutePath().toString(), "-C", "."));
    assertThat(untar.code()).as(untar.toString()).isZero();
    return d;
  }

  /** The URLs of every jar in {@code lib/}. */
  URL[] libClassPath() throws IOException {
    try (Stream<Path> files = Files.list(home.resolve("lib"))) {
      return files
          .filter(p -> p.toString().endsWith(".jar"))
          .map(
              p -> {
                try {
                  return p.toUri().toURL();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .toArray(URL[]::new);
    }
  }

  /** {@code bin/meterstore args} in {@code cwd}, with {@code extraEnv} added to its environment. */
  Run launcher(Path cwd, Map<String, String> extraEnv, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/meterstore").toString()));
    command.addAll(List.of(args));
    Map<String, String> env = new HashMap<>(extraEnv);
    env.put("JAVA_HOME", JAVA_HOME.toString());
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    env.put("JAVA_OPTS", "-Djava.io.tmpdir=" + tmp + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    return run(cwd, env, command);
  }

  private Run run(Path cwd, Map<String, String> env, List<String> command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", "/usr/bin:/bin");
    builder.environment().putAll(env);
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    long started = System.nanoTime();
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(
          "timed out after " + TIMEOUT_SECONDS + " s: " + String.join(" ", command));
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    Run run =
        new Run(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8),
            millis);
    Files.delete(out);
    Files.delete(err);
    return run;
  }

  /** What one child process printed and returned, and how long it ran (wall clock). */
  record Run(int code, String out, String err, long millis) {
    JsonNode json() {
      try {
        return new ObjectMapper().readTree(out);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + out + "\nstderr: " + err, e);
      }
    }

    /** The lines written to standard error. */
    long errLines() {
      return err.lines().count();
    }

    @Override
    public String toString() {
      return "exit " + code + " after " + millis + " ms\n--- out\n" + out + "--- err\n" + err;
    }
  }
}
