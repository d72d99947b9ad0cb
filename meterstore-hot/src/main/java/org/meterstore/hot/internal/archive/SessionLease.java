package org.meterstore.hot.internal.archive;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import javax.sql.DataSource;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.internal.sql.AdvisoryLocks;
import org.meterstore.hot.internal.sql.SqlErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An archival lease as a session-level advisory lock ({@code pg_try_advisory_lock}, two-int form,
 * class {@link #LEASE_CLASS}) on a connection taken from the data source for the lease's lifetime
 * and used for nothing else. The lock lives exactly as long as that session: when the backend is
 * terminated or the process dies, PostgreSQL releases it, and {@link #isHeld()} (which asks {@code
 * pg_locks} on that same connection) turns false, so a run that lost its lease cannot commit.
 */
final class SessionLease implements ArchivalLease {
  /** The advisory-lock class of archival leases (see {@link AdvisoryLocks} for the scheme). */
  static final int LEASE_CLASS = AdvisoryLocks.ARCHIVAL_LEASE;

  private static final Logger LOG = LoggerFactory.getLogger(SessionLease.class);
  private static final int CHECK_TIMEOUT_SECONDS = 10;

  private final String table;
  private final Connection connection;
  private final int key;
  private final long epoch;
  private final int pid;
  private boolean closed;

  private SessionLease(String table, Connection connection, int key, long epoch, int pid) {
    this.table = table;
    this.connection = connection;
    this.key = key;
    this.epoch = epoch;
    this.pid = pid;
  }

  /** Tries the lock on a fresh connection; on success bumps the epoch in the same session. */
  static Optional<ArchivalLease> tryAcquire(
      DataSource dataSource, String schema, String table, String holder, Instant now) {
    int key = AdvisoryLocks.key(schema, table);
    Connection c = null;
    boolean locked = false;
    try {
      c = dataSource.getConnection();
      c.setAutoCommit(true);
      locked = tryLock(c, key);
      if (!locked) {
        c.close();
        return Optional.empty();
      }
      long epoch = bumpEpoch(c, schema, table, holder, now);
      int pid = backendPid(c);
      LOG.info("Archival lease of {}.{} taken: epoch {}, backend {}", schema, table, epoch, pid);
      return Optional.of(new SessionLease(table, c, key, epoch, pid));
    } catch (SQLException e) {
      if (c != null) {
        release(c, key, locked);
      }
      throw SqlErrors.translate("take the archival lease of table " + table, e);
    }
  }

  private static boolean tryLock(Connection c, int key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
      s.setInt(1, LEASE_CLASS);
      s.setInt(2, key);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static long bumpEpoch(
      Connection c, String schema, String table, String holder, Instant now) throws SQLException {
    String leases = SqlIdentifiers.qualified(schema, "archival_leases");
    String sql =
        "INSERT INTO "
            + leases
            + " AS l (table_name, epoch, holder, acquired_at) VALUES (?, 1, ?, ?)"
            + " ON CONFLICT (table_name) DO UPDATE SET epoch = l.epoch + 1,"
            + " holder = EXCLUDED.holder, acquired_at = EXCLUDED.acquired_at RETURNING epoch";
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, table);
      s.setString(2, holder);
      s.setObject(3, now.atOffset(ZoneOffset.UTC));
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static int backendPid(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Override
  public String table() {
    return table;
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public int backendPid() {
    return pid;
  }

  @Override
  public boolean isHeld() {
    if (closed) {
      return false;
    }
    String sql =
        "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
            + " AND pid = pg_backend_pid() AND granted AND objsubid = 2"
            + " AND classid::bigint = ? AND objid::bigint = ?)";
    try (PreparedStatement s = connection.prepareStatement(sql)) {
      s.setQueryTimeout(CHECK_TIMEOUT_SECONDS);
      s.setLong(1, Integer.toUnsignedLong(LEASE_CLASS));
      s.setLong(2, Integer.toUnsignedLong(key));
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    } catch (SQLException e) {
      LOG.warn("Archival lease of {} (backend {}) is lost: {}", table, pid, e.getMessage());
      return false;
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      release(connection, key, true);
    }
  }

  /** Unlocks (so a pooled session cannot keep the lock) and closes; never throws. */
  private static void release(Connection c, int key, boolean locked) {
    try {
      if (locked && !c.isClosed()) {
        try (PreparedStatement s = c.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
          s.setInt(1, LEASE_CLASS);
          s.setInt(2, key);
          s.execute();
        }
      }
    } catch (SQLException e) {
      LOG.debug("Cannot unlock an archival lease (its session is gone): {}", e.getMessage());
    } finally {
      try {
        c.close();
      } catch (SQLException e) {
        LOG.debug("Cannot close an archival lease's connection: {}", e.getMessage());
      }
    }
  }
}
