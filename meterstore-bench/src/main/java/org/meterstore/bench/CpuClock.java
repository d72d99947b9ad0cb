package org.meterstore.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * CPU seconds used by this JVM (all threads) and by the benchmark's own PostgreSQL server (its
 * postmaster and every child: backends, background workers, and the reaped children the kernel adds
 * to the postmaster's account), plus the time the JVM's collectors report. A side's cost is the
 * difference of two readings. PostgreSQL runs on the same cores, so wall-clock rows/s on a shared
 * machine hide how much work each side did; CPU seconds are the steadier figure.
 *
 * <p>Only this deployment's server is counted (found through {@code pg_backend_pid()} and its
 * parent), never other PostgreSQL processes on the machine. PostgreSQL's figure is NaN without
 * Linux {@code /proc}; the JVM's is NaN where the platform does not report process CPU time.
 */
final class CpuClock {
  /** Linux reports {@code /proc/<pid>/stat} times in USER_HZ ticks, 100 per second. */
  private static final double TICKS_PER_SECOND = 100.0;

  private static final Path PROC = Path.of("/proc");

  private final long postmaster;

  private CpuClock(long postmaster) {
    this.postmaster = postmaster;
  }

  /** A clock for the server {@code c} is connected to (on this machine). */
  static CpuClock of(Connection c) throws SQLException {
    long backend;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      backend = rs.getLong(1);
    }
    return new CpuClock(
        ProcessHandle.of(backend)
            .flatMap(ProcessHandle::parent)
            .map(ProcessHandle::pid)
            .orElse(-1L));
  }

  /**
   * CPU and collector seconds since some fixed origin.
   *
   * @param jvm this process's user + system CPU seconds
   * @param postgres the server's user + system CPU seconds, children included
   * @param gc the collectors' reported collection time in seconds, summed over collectors
   * @param jit the JIT compilers' reported compilation time in seconds (part of {@code jvm}): code
   *     compiled while a side runs is work the side waits for on a machine of two cores
   */
  record Usage(double jvm, double postgres, double gc, double jit) {
    /** What was used between {@code earlier} and this reading. */
    Usage since(Usage earlier) {
      return new Usage(
          jvm - earlier.jvm, postgres - earlier.postgres, gc - earlier.gc, jit - earlier.jit);
    }

    /** This and {@code other} together. */
    Usage plus(Usage other) {
      return new Usage(jvm + other.jvm, postgres + other.postgres, gc + other.gc, jit + other.jit);
    }
  }

  /** The current reading. */
  Usage read() {
    return new Usage(jvmSeconds(), postgresSeconds(), gcSeconds(), jitSeconds());
  }

  private static double jitSeconds() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime() / 1000.0
        : Double.NaN;
  }

  /**
   * This process's CPU seconds alone, without scanning {@code /proc} for the server: for timing
   * short work, where {@link #read()}'s own scan would count in the JVM's figure.
   */
  static double jvmSeconds() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
        ? os.getProcessCpuTime() / 1e9
        : Double.NaN;
  }

  private static double gcSeconds() {
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      millis += Math.max(0, gc.getCollectionTime());
    }
    return millis / 1000.0;
  }

  private double postgresSeconds() {
    if (postmaster < 0 || !Files.isDirectory(PROC)) {
      return Double.NaN;
    }
    long ticks = 0;
    try (Stream<Path> entries = Files.list(PROC)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        String name = p.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)) {
          ticks += ticksIfServer(Long.parseLong(name), p.resolve("stat"));
        }
      }
    } catch (IOException e) {
      return Double.NaN;
    }
    return ticks / TICKS_PER_SECOND;
  }

  /** utime + stime + cutime + cstime of the process if it is the postmaster or its child. */
  private long ticksIfServer(long pid, Path stat) {
    String text;
    try {
      text = Files.readString(stat);
    } catch (IOException | RuntimeException e) {
      return 0; // the process ended while being read
    }
    // proc(5): "pid (comm) state ppid …"; comm may hold spaces, so split after the last ')'
    String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
    long ppid = Long.parseLong(f[1]);
    if (pid != postmaster && ppid != postmaster) {
      return 0;
    }
    long ticks = 0;
    for (int i = 11; i <= 14; i++) { // fields 14-17: utime, stime, cutime, cstime (f[0] is 3)
      ticks += Long.parseLong(f[i]);
    }
    return ticks;
  }
}
