package org.meterstore.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code meterstore} command in a child JVM ({@code java -cp <this JVM's class path>
 * org.meterstore.cli.Main …}), for what an in-process run cannot show: a process killed with {@code
 * kill -9}, and what the next process finds. Standard output and error go to files next to the
 * configuration.
 */
final class ChildCli implements AutoCloseable {
  private final Process process;
  private final Path out;
  private final Path err;

  private ChildCli(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /** Starts {@code meterstore --config <config> args…}; {@code name} names the output files. */
  static ChildCli start(Path config, String name, String... args) throws IOException {
    return start(config, name, java.util.Map.of(), args);
  }

  /** As {@link #start(Path, String, String...)}, with {@code env} added to its environment. */
  static ChildCli start(Path config, String name, java.util.Map<String, String> env, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx384m");
    // short-lived children on a shared 2-core machine: start fast, keep few GC and JIT threads
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    // what the launcher passes (Arrow's memory, for meterstore serve; ADR 0026)
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.add("--config");
    command.add(config.toString());
    command.addAll(List.of(args));
    Path out = config.resolveSibling(name + ".out");
    Path err = config.resolveSibling(name + ".err");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().putAll(env);
    Process p = builder.start();
    return new ChildCli(p, out, err);
  }

  /** Waits until standard error contains {@code text}; fails after {@code seconds} or an exit. */
  void awaitErr(String text, long seconds) throws IOException, InterruptedException {
    for (long waited = 0; waited < seconds * 10; waited++) {
      if (err().contains(text)) {
        return;
      }
      if (!process.isAlive()) {
        throw new AssertionError("child exited " + process.exitValue() + " before: " + text + this);
      }
      Thread.sleep(100);
    }
    throw new AssertionError("child did not print " + text + " in " + seconds + " s" + this);
  }

  /** {@code kill -9} of the JVM (what it started itself, such as a PostgreSQL, is not killed). */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new AssertionError("child did not die");
    }
  }

  /** SIGTERM, as Ctrl-C or a service manager stops it; waits for the exit and returns its code. */
  int stop(long seconds) throws InterruptedException {
    process.destroy();
    return exit(seconds);
  }

  /** Waits for the exit and returns its code. */
  int exit(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("child did not exit in " + seconds + " s" + this);
    }
    return process.exitValue();
  }

  String out() throws IOException {
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  String err() throws IOException {
    return Files.readString(err, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    try {
      return "\n--- out\n" + out() + "--- err\n" + err();
    } catch (IOException e) {
      return " (output unreadable: " + e + ")";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
