package org.meterstore.reliability;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A primary and a streaming standby made of two embedded PostgreSQL servers on fixed ports, so that
 * one multi-host JDBC URL ({@link #jdbcUrl()}) stays valid across failovers, as it does behind
 * Patroni or a cloud's Multi-AZ pair. The primary crashes as a machine does ({@link #crashPrimary}:
 * {@code kill -9} of the postmaster and every process it started), the standby is promoted with
 * {@code pg_promote()} ({@link #promoteStandby}), and a new standby is rebuilt on the crashed
 * node's port from a copy of the new primary's data directory, cleanly stopped ({@link #ready}).
 *
 * <p>Replication is synchronous ({@code synchronous_standby_names = '*'}, {@code synchronous_commit
 * = on}: a commit returns once the standby flushed it) or asynchronous. The settings a test changes
 * at run time live in {@code postgresql.auto.conf}, never on the command line, which would override
 * {@code ALTER SYSTEM}. After a promotion the new primary replicates to nobody, so, like Patroni's
 * non-strict synchronous mode, it stops waiting for a standby. Not thread-safe, except {@link
 * #crashPrimary()}, which a hook on another thread may call.
 */
final class ReplicatedPostgres implements AutoCloseable {
  static final String USER = "postgres";

  /** How the primary waits for its standby. */
  enum Replication {
    /**
     * A commit returns once the standby flushed its WAL: a failover loses no acknowledged commit.
     */
    SYNCHRONOUS,
    /** A commit returns at once: a failover loses what the standby had not received. */
    ASYNCHRONOUS
  }

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String APPLICATION = "standby";

  private final Path root;
  private final int[] ports = {RestartablePostgres.freePort(), RestartablePostgres.freePort()};
  private final Path[] dirs = new Path[2];
  private final EmbeddedPostgres[] servers = new EmbeddedPostgres[2];
  private int primary;
  private boolean standbyUp;
  private int generation;

  private ReplicatedPostgres(Path root) {
    this.root = root;
  }

  /** Initialises a cluster under {@code root} and starts it with a streaming standby. */
  static ReplicatedPostgres start(Path root) {
    ReplicatedPostgres pair = new ReplicatedPostgres(root);
    pair.dirs[0] = pair.nextDir(0);
    pair.servers[0] = pair.launch(0, ReplicatedPostgres::primarySettings);
    pair.standbyUp = false;
    pair.ready(Replication.SYNCHRONOUS);
    return pair;
  }

  /** Both hosts, the primary whichever it is: what MeterStore is configured with. */
  String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:"
        + ports[0]
        + ",127.0.0.1:"
        + ports[1]
        + "/postgres?targetServerType=primary";
  }

  /**
   * Makes sure a standby streams from the primary in {@code mode}: rebuilt first when a failover
   * left none, then waited for until it streams (and, synchronous, is the synchronous standby).
   */
  synchronized void ready(Replication mode) {
    if (servers[primary] == null) {
      promoteStandby(); // a test that crashed the primary ended before it failed over
    }
    if (!standbyUp) {
      rebuildStandby();
    }
    execute(primary, "ALTER SYSTEM SET synchronous_standby_names = " + names(mode));
    execute(primary, "SELECT pg_reload_conf()");
    String wanted = mode == Replication.SYNCHRONOUS ? "sync" : "async";
    await(
        "the standby streams " + wanted,
        () ->
            wanted.equals(
                query(
                    primary,
                    "SELECT sync_state FROM pg_stat_replication WHERE application_name = '"
                        + APPLICATION
                        + "' AND state = 'streaming'")));
  }

  /**
   * Waits until the standby replayed everything the primary wrote, then stops its WAL receiver
   * ({@code primary_conninfo = ''}, reloaded): from here on the primary's commits never reach it.
   * Asynchronous replication only (a synchronous primary would wait for ever).
   */
  synchronized void disconnectStandby() {
    String lsn = query(primary, "SELECT pg_current_wal_lsn()::text");
    await(
        "the standby replays " + lsn,
        () ->
            "true"
                .equals(
                    query(
                        1 - primary,
                        "SELECT (pg_last_wal_replay_lsn() >= '" + lsn + "'::pg_lsn)::text")));
    execute(1 - primary, "ALTER SYSTEM SET primary_conninfo = ''");
    execute(1 - primary, "SELECT pg_reload_conf()");
    await(
        "the standby's WAL receiver stops",
        () -> "0".equals(query(primary, "SELECT count(*)::text FROM pg_stat_replication")));
    standbyUp = false; // it runs, but streams no more: the next ready() rebuilds it
  }

  /**
   * Kills the primary's postmaster and every process it started with {@code SIGKILL}, as a lost
   * machine: no shutdown checkpoint, no goodbye to clients or to the standby.
   */
  synchronized void crashPrimary() {
    Path pidFile = dirs[primary].resolve("postmaster.pid");
    try {
      long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
      ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
      List<ProcessHandle> all =
          Stream.concat(Stream.of(postmaster), postmaster.descendants()).toList();
      all.forEach(ProcessHandle::destroyForcibly);
      for (ProcessHandle p : all) {
        p.onExit().get(WAIT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + pidFile, e);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot kill the primary on port " + ports[primary], e);
    }
    // its EmbeddedPostgres is left as it is: closing it would ask pg_ctl to stop a dead server
    servers[primary] = null;
  }

  /**
   * Promotes the standby ({@code pg_promote()}, waiting until it accepts writes) and lets it commit
   * without a standby of its own. The old primary's node stays down until {@link #ready}.
   */
  synchronized void promoteStandby() {
    int standby = 1 - primary;
    if (!"true".equals(query(standby, "SELECT pg_promote(true, 60)::text"))) {
      throw new IllegalStateException("The standby on port " + ports[standby] + " did not promote");
    }
    primary = standby;
    standbyUp = false;
    execute(primary, "ALTER SYSTEM SET synchronous_standby_names = ''");
    execute(primary, "SELECT pg_reload_conf()");
  }

  /** The port of the current primary. */
  int primaryPort() {
    return ports[primary];
  }

  /** Rows of {@code sql} on the current primary, connected directly (not through MeterStore). */
  String queryPrimary(String sql) {
    return query(primary, sql);
  }

  @Override
  public synchronized void close() {
    for (int i = 0; i < 2; i++) {
      stop(i);
    }
  }

  /**
   * Stops the primary cleanly, copies its data directory to the other node, makes the copy a
   * standby of it, and starts both. The other node's server, if it still runs, is stopped first.
   */
  private void rebuildStandby() {
    int standby = 1 - primary;
    stop(standby);
    stop(primary);
    Path copy = nextDir(standby);
    copyData(dirs[primary], copy);
    deleteQuietly(dirs[standby]);
    dirs[standby] = copy;
    try {
      Files.writeString(copy.resolve("standby.signal"), "");
      Path auto = copy.resolve("postgresql.auto.conf");
      List<String> kept =
          Files.readAllLines(auto).stream().filter(l -> !l.startsWith("primary_conninfo")).toList();
      Files.write(auto, kept);
      Files.writeString(
          auto,
          "primary_conninfo = 'host=127.0.0.1 port="
              + ports[primary]
              + " user="
              + USER
              + " application_name="
              + APPLICATION
              + "'\n",
          java.nio.file.StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot configure the standby in " + copy, e);
    }
    servers[primary] = launch(primary, dir -> {});
    servers[standby] = launch(standby, dir -> {});
    standbyUp = true;
  }

  private EmbeddedPostgres launch(int node, java.util.function.Consumer<java.io.File> customizer) {
    try {
      return EmbeddedPostgres.builder()
          .setDataDirectory(dirs[node])
          .setCleanDataDirectory(false)
          .setRegisterShutdownHook(false)
          .setPort(ports[node])
          .setServerConfig("listen_addresses", "127.0.0.1")
          // zonky turns it off for speed; off, no commit waits for a standby, whatever the names
          .setServerConfig("synchronous_commit", "on")
          .setDataDirectoryCustomizer(customizer)
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start PostgreSQL on port " + ports[node], e);
    }
  }

  /** What a primary needs to feed a streaming standby, appended to a new cluster's config. */
  private static void primarySettings(java.io.File dir) {
    try {
      Files.writeString(
          dir.toPath().resolve("postgresql.conf"),
          "\nwal_level = replica\nmax_wal_senders = 4\nhot_standby = on\nwal_keep_size = '256MB'\n"
              + "wal_receiver_status_interval = '1s'\n",
          StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.APPEND);
      String hba = Files.readString(dir.toPath().resolve("pg_hba.conf"));
      if (!hba.lines()
          .anyMatch(l -> l.matches("host\\s+replication\\s+all\\s+127\\.0\\.0\\.1.*"))) {
        Files.writeString(
            dir.toPath().resolve("pg_hba.conf"),
            "\nhost replication all 127.0.0.1/32 trust\n",
            java.nio.file.StandardOpenOption.APPEND);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot configure the primary in " + dir, e);
    }
  }

  private void stop(int node) {
    if (servers[node] == null) {
      return;
    }
    try {
      servers[node].close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop PostgreSQL on port " + ports[node], e);
    } finally {
      servers[node] = null;
    }
  }

  private Path nextDir(int node) {
    return root.resolve("node" + node + "-" + generation++);
  }

  /** The files to leave behind: the running server's and zonky's locks. */
  private static final Set<String> NOT_COPIED =
      Set.of("postmaster.pid", "postmaster.opts", "epg-lock", "standby.signal");

  private static void copyData(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else if (!NOT_COPIED.contains(source.getFileName().toString())) {
          Files.copy(source, target);
        }
      }
      // a standby directory must be private to its owner, as initdb made the primary's
      Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy " + from + " to " + to, e);
    }
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover directory of a dead node costs disk space only
    }
  }

  private static String names(Replication mode) {
    return mode == Replication.SYNCHRONOUS ? "'*'" : "''";
  }

  private String url(int node) {
    return "jdbc:postgresql://127.0.0.1:" + ports[node] + "/postgres";
  }

  private void execute(int node, String sql) {
    try (Connection c = DriverManager.getConnection(url(node), USER, null);
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot run " + sql + " on port " + ports[node], e);
    }
  }

  private String query(int node, String sql) {
    try (Connection c = DriverManager.getConnection(url(node), USER, null);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot run " + sql + " on port " + ports[node], e);
    }
  }

  private static void await(String what, java.util.function.BooleanSupplier done) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Gave up waiting until " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted waiting until " + what, e);
      }
    }
  }
}
