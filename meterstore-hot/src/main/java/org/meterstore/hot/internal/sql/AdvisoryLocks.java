package org.meterstore.hot.internal.sql;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.zip.CRC32;

/**
 * Transaction-scoped advisory locks, keyed {@code (class, crc32(schema.object))} with the two-int
 * form so that they cannot collide with an application's single-{@code bigint} keys. The class says
 * what is serialised; the hash is computed here, not by the server, so every MeterStore version and
 * every PostgreSQL version agree on it. Locks on an identifier ({@link #SUBJECT}, {@link
 * #MARKET_LOCATION}) are keyed by 16 bits of a SHA-256 instead, computed by their owners, since
 * {@code pg_locks} is readable by every role.
 */
public final class AdvisoryLocks {
  /** Serialises the migration of one schema. */
  public static final int MIGRATION = 0x4d530001;

  /** Serialises the creators of one table's partitions. */
  public static final int PARTITION_DDL = 0x4d530002;

  /**
   * Orders the writes of one table: shared for ordinary writes, exclusive for a write that stores a
   * span crossing a partition bound or that spans too many market locations to lock them one by
   * one. (Named {@code CROSSING_SPANS} until the market-location locks joined it; same value.)
   */
  public static final int TABLE_WRITES = 0x4d530003;

  /**
   * Serialises registration, erasure, holds and lifted suppressions of one natural identifier,
   * keyed by 16 bits of a hash of it (computed by the registry): {@code pg_locks} is public.
   */
  public static final int SUBJECT = 0x4d530004;

  /**
   * Serialises the writers of one market location ({@code malo_id}) in one table, keyed by 16 bits
   * of a hash (computed by the writer): {@code pg_locks} is public. Taken under a shared {@link
   * #TABLE_WRITES} lock, in ascending key order.
   */
  public static final int MARKET_LOCATION = 0x4d530005;

  /** One table's archival lease (session-level), also tried by a purge of that table. */
  public static final int ARCHIVAL_LEASE = 0x4d530010;

  private AdvisoryLocks() {}

  /** The key of {@code object} in {@code schema}. */
  public static int key(String schema, String object) {
    CRC32 crc = new CRC32();
    crc.update((schema + "." + object).getBytes(StandardCharsets.UTF_8));
    return (int) crc.getValue();
  }

  /** Waits for the exclusive lock, held until the transaction ends. */
  public static void lockExclusive(Connection c, int lockClass, int key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
      s.setInt(1, lockClass);
      s.setInt(2, key);
      s.execute();
    }
  }
}
