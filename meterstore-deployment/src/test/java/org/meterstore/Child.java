package org.meterstore;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child process ({@link MaintenanceChild}, {@link AppendChild}, {@link QueryChild}) as the parent
 * test sees it: its stdout lines arrive on a queue (read by a thread of their own, so the child
 * never blocks on a full pipe); stderr goes to a file.
 */
final class Child implements AutoCloseable {
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private Child(Process process) {
    this.process = process;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("EOF " + e.getMessage());
              }
              lines.add("EOF");
            },
            "child-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code java -cp <this JVM's class path> MaintenanceChild args…}. */
  static Child start(Path stderr, List<String> args) throws IOException {
    return start(MaintenanceChild.class, stderr, args);
  }

  /** Starts {@code java -cp <this JVM's class path> <main> args…}. */
  static Child start(Class<?> main, Path stderr, List<String> args) throws IOException {
    return start(main, "512m", stderr, args);
  }

  /**
   * As {@link #start(Class, Path, List)}, with a heap of at most {@code maxHeap} ({@code -Xmx}).
   */
  static Child start(Class<?> main, String maxHeap, Path stderr, List<String> args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + maxHeap);
    command.add("-XX:+ExitOnOutOfMemoryError");
    // short-lived children on a shared 2-core machine: start fast, keep few GC and JIT threads
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(stderr.toFile());
    return new Child(pb.start());
  }

  /** Waits for a line starting with {@code prefix}; fails after {@code seconds} or at EOF. */
  String await(String prefix, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null || line.startsWith("EOF")) {
        throw new AssertionError(
            "child did not print "
                + prefix
                + " (got "
                + (line == null ? "timeout" : line)
                + "); saw "
                + seen);
      }
      seen.add(line);
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  /** Every line seen so far by {@link #await}. */
  List<String> seen() {
    return List.copyOf(seen);
  }

  /** The {@code ROW} lines seen, split into fields. */
  List<String[]> rows() {
    return seen.stream().filter(l -> l.startsWith("ROW ")).map(l -> l.split(" ", 7)).toList();
  }

  /** kill -9. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  /** Waits for a normal exit and returns its code. */
  int exit(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("child did not exit in " + seconds + " s; saw " + seen);
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
