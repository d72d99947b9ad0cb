package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server a previous process left in the cluster directory. The PostgreSQL server runs as a daemon
 * of its own, so a MeterStore process killed with {@code kill -9} (or by the OOM killer) leaves it
 * running, and a new server on the same cluster cannot start. Called only while the data directory
 * lock is held, which proves that no live MeterStore process owns the cluster: a server still
 * running there is an orphan, and stopping it (a fast shutdown: sessions are ended, the data is
 * checkpointed) is safe. A {@code postmaster.pid} whose pid now belongs to another program (or to
 * an exited server nobody has reaped yet) is removed, since PostgreSQL refuses to start beside one
 * naming a live process; one whose process is gone is left to PostgreSQL, which checks the old
 * server's shared memory before it replaces the file.
 */
final class LeftoverServer {
  private static final Logger LOG = LoggerFactory.getLogger(LeftoverServer.class);

  /** How far a process's start may lie from the start the pid file records and be that server. */
  static final Duration SAME_START = Duration.ofSeconds(10);

  private static final long POLL_MILLIS = 100;
  private static final int STOP_POLLS = 300; // 30 s for the orphan's shutdown checkpoint

  private LeftoverServer() {}

  /** What the process a pid file names turned out to be. */
  enum Verdict {
    /** This cluster's server, still running: stop it. */
    RUNNING,
    /** The process is gone (or exited and unreaped): the file is stale. */
    GONE,
    /** The pid now belongs to another program, or the file describes another cluster. */
    OTHER_PROCESS,
    /** A live process whose program or start cannot be read: touch nothing. */
    UNIDENTIFIED
  }

  /** What the operating system says of a process; the absent parts it would not tell. */
  record Facts(boolean alive, Optional<String> command, Optional<Instant> started) {
    static Facts of(long pid) {
      Optional<ProcessHandle> handle = ProcessHandle.of(pid);
      if (handle.isEmpty() || !handle.get().isAlive() || Zombies.isZombie(pid)) {
        return new Facts(false, Optional.empty(), Optional.empty());
      }
      ProcessHandle.Info info = handle.get().info();
      return new Facts(true, info.command(), info.startInstant());
    }
  }

  /**
   * Judges {@code file} found in {@code cluster} (a real path) against what the OS says of its
   * process. Pure.
   */
  static Verdict judge(PidFile file, Path cluster, Facts facts) {
    if (!facts.alive()) {
      return Verdict.GONE;
    }
    if (!sameDirectory(file.dataDirectory(), cluster)) {
      return Verdict.OTHER_PROCESS;
    }
    if (facts.command().isEmpty() || facts.started().isEmpty()) {
      return Verdict.UNIDENTIFIED;
    }
    Path program = Path.of(facts.command().get()).getFileName();
    String name = program == null ? "" : program.toString();
    boolean postgres = name.equals("postgres") || name.equals("postgres.exe");
    Duration apart = Duration.between(file.started(), facts.started().get()).abs();
    return postgres && apart.compareTo(SAME_START) <= 0 ? Verdict.RUNNING : Verdict.OTHER_PROCESS;
  }

  /**
   * Leaves {@code cluster} without a server or a stale pid file, so that a new server can start.
   *
   * @throws MeterStoreException {@code STORAGE} when the pid file names a live process that cannot
   *     be identified (not retryable: someone must look), or an orphan that does not stop in 30 s
   *     (retryable)
   */
  static void clear(Path cluster) {
    try {
      Optional<PidFile> found;
      try {
        found = PidFile.read(cluster);
      } catch (IOException e) {
        LOG.warn(
            "Removing the unreadable pid file of the embedded PostgreSQL in {}: {}", cluster, e);
        Files.deleteIfExists(cluster.resolve(PidFile.NAME));
        return;
      }
      if (found.isPresent()) {
        clear(cluster, found.get());
      }
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          true,
          "Cannot check for a PostgreSQL left running in " + cluster + ": " + e,
          e);
    }
  }

  private static void clear(Path cluster, PidFile file) throws IOException {
    long pid = file.pid();
    switch (judge(file, cluster.toRealPath(), Facts.of(pid))) {
      case RUNNING -> stop(cluster, pid);
      case GONE -> {
        // PostgreSQL removes a pid file whose process is gone itself, after checking that no
        // backend of that server still holds its shared memory (the key is in the file); only an
        // unreaped one, which it would take for alive, is removed here
        if (ProcessHandle.of(pid).isPresent()) {
          removeStale(cluster, pid);
        }
      }
      case OTHER_PROCESS -> removeStale(cluster, pid);
      case UNIDENTIFIED ->
          throw new MeterStoreException(
              ErrorKind.STORAGE,
              false,
              "Cannot start the embedded PostgreSQL in "
                  + cluster
                  + ": its postmaster.pid names process "
                  + pid
                  + ", which is running but cannot be identified; stop it if it is this"
                  + " cluster's PostgreSQL, or remove postmaster.pid if it is not",
              null);
    }
  }

  private static void removeStale(Path cluster, long pid) throws IOException {
    LOG.info("Removing the stale pid file of the embedded PostgreSQL in {} (pid {})", cluster, pid);
    Files.deleteIfExists(cluster.resolve(PidFile.NAME));
  }

  private static void stop(Path cluster, long pid) throws IOException {
    LOG.warn(
        "Stopping the embedded PostgreSQL in {} (pid {}) that a process which ended left running",
        cluster,
        pid);
    fastShutdown(pid);
    try {
      for (int i = 0; i < STOP_POLLS; i++) {
        if (!Facts.of(pid).alive()) {
          Files.deleteIfExists(cluster.resolve(PidFile.NAME)); // present if it died, not stopped
          return;
        }
        if (!Files.exists(cluster.resolve(PidFile.NAME))) {
          return; // removed as its last act: stopped, whether or not anyone reaped it yet
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MeterStoreException(
          ErrorKind.STORAGE, true, "Interrupted while stopping the PostgreSQL " + pid, e);
    }
    throw new MeterStoreException(
        ErrorKind.STORAGE,
        true,
        "Cannot start the embedded PostgreSQL in "
            + cluster
            + ": the server a process which ended left running (pid "
            + pid
            + ") did not stop within 30 s",
        null);
  }

  /**
   * SIGINT, PostgreSQL's fast shutdown ({@code pg_ctl stop -m fast} sends it). The JDK can send
   * only SIGTERM, a smart shutdown that waits for every client, and SIGKILL, which would leave the
   * backends and the shared memory behind; so the shell's {@code kill} sends it, and SIGTERM is the
   * fallback where there is no shell.
   */
  private static void fastShutdown(long pid) {
    try {
      Process kill =
          new ProcessBuilder("/bin/sh", "-c", "kill -INT \"$1\"", "sh", Long.toString(pid))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0) {
        return;
      }
      kill.destroyForcibly();
    } catch (IOException e) {
      LOG.debug("Cannot run kill -INT {}: {}", pid, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
  }

  private static boolean sameDirectory(Path recorded, Path cluster) {
    try {
      return Files.exists(recorded) && recorded.toRealPath().equals(cluster);
    } catch (IOException e) {
      return false;
    }
  }
}
