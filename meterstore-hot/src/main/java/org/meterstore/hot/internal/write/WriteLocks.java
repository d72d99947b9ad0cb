package org.meterstore.hot.internal.write;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.internal.sql.AdvisoryLocks;

/**
 * The locks a write takes before it reads anything: the first two statements of its first round
 * trip ({@link LockedRead}). Under {@code READ COMMITTED} every later statement takes its snapshot
 * after they are granted, so the reads see everything a writer they waited for committed.
 *
 * <ol>
 *   <li>The table's write lock ({@link AdvisoryLocks#TABLE_WRITES}): shared for an ordinary batch;
 *       exclusive for a batch with a span crossing a partition bound ({@link CrossingSpans}) and
 *       for a <em>wide</em> batch, one of more than {@link #MAX_LOCATIONS} market locations.
 *   <li>Under the shared table lock, one exclusive lock per market location ({@code malo_id}) of
 *       the batch ({@link AdvisoryLocks#MARKET_LOCATION}), in ascending key order.
 * </ol>
 *
 * <p>Why: they enforce {@code one_operator_per_reading} without a GiST index. A merge key starts
 * with its {@code malo_id}, so two writers of one reading always share a lock (a location lock, or
 * the table lock with one of them exclusive): the second reads the first's committed versions and
 * {@link OutcomeResolver} refuses a second operator. Without it, two first versions under two
 * operators would each see no stored row and both commit.
 *
 * <p>No deadlock between writers: each takes the table lock, then its location locks in ascending
 * order, all before its first read; it waits for nothing else a writer of the same reading holds
 * afterwards (same merge key, same location, so never for a row of another writer).
 *
 * <p>Bounded: advisory locks live in the server's shared lock table, sized {@code
 * max_locks_per_transaction} (64 by default) times {@code max_connections}, shared by the whole
 * cluster, and never on the fast path of relation locks. A batch therefore takes at most {@link
 * #MAX_LOCATIONS} + 1; a wider one serialises with every writer of the table instead of exhausting
 * the table for all of them.
 *
 * <p>All of this holds under {@code READ COMMITTED} only: under {@code REPEATABLE READ} or {@code
 * SERIALIZABLE} the transaction's one snapshot is taken by its first statement, before the locks
 * are granted. The first statement therefore reports the isolation level, and {@link
 * #requireReadCommitted} refuses the write under any other.
 *
 * <p>Keys are 16 bits of a SHA-256 over schema, table and {@code malo_id}: {@code pg_locks} is
 * readable by every role, and a 32-bit hash of an eleven-digit id with a check digit would name the
 * location among about two candidates. Locations sharing a key merely wait for each other.
 */
final class WriteLocks {
  /**
   * The most market locations a batch locks one by one; above it the batch takes the table lock
   * exclusively. 128 keeps a fleet writer's batch of 100 meter-days (9,600 quarter-hours)
   * concurrent with the other writers, while a store's default pool of 8 connections holds at most
   * 8 × 129 = 1,032 of the default lock table's 6,400 entries ({@code max_locks_per_transaction} 64
   * × {@code max_connections} 100); 64, the default per-connection allowance, made such batches run
   * one at a time.
   */
  static final int MAX_LOCATIONS = 128;

  private static final String ISOLATION = "current_setting('transaction_isolation')";
  // A function scan returns the array in order and count() takes the locks row by row.
  private static final String LOCATION_LOCKS =
      "SELECT count(pg_advisory_xact_lock(?, k)) FROM unnest(?::int4[]) AS u(k)";

  /**
   * The locks of one batch.
   *
   * @param exclusive whether the table lock is taken exclusively
   * @param locations the location keys, ascending and distinct; empty when {@code exclusive}
   */
  record Plan(boolean exclusive, Integer[] locations) {}

  private final String schema;
  private final String table;
  private final int tableKey;
  private final String tableLockShared;
  private final String tableLockExclusive;

  /** The locks of {@code schema.table}; its first statement applies the write's plan settings. */
  WriteLocks(String schema, String table, String planSettings) {
    this.schema = schema;
    this.table = table;
    this.tableKey = AdvisoryLocks.key(schema, table);
    this.tableLockShared =
        "SELECT " + ISOLATION + ", " + planSettings + ", pg_advisory_xact_lock_shared(?, ?)";
    this.tableLockExclusive =
        "SELECT " + ISOLATION + ", " + planSettings + ", pg_advisory_xact_lock(?, ?)";
  }

  /** The locks {@code rows} need. */
  Plan plan(List<BatchRow> rows) {
    Set<String> locations = new HashSet<>();
    boolean crossing = false;
    for (BatchRow row : rows) {
      crossing |= row.crossesPartition();
      locations.add(row.reading().maloId().value());
    }
    if (crossing || locations.size() > MAX_LOCATIONS) {
      return new Plan(true, new Integer[0]);
    }
    TreeSet<Integer> keys = new TreeSet<>();
    locations.forEach(malo -> keys.add(locationKey(schema, table, malo)));
    return new Plan(false, keys.toArray(Integer[]::new));
  }

  /** The two lock statements of {@code plan}, to run first and in this order. */
  String statements(Plan plan) {
    return (plan.exclusive() ? tableLockExclusive : tableLockShared) + ";\n" + LOCATION_LOCKS;
  }

  /** Binds the {@link #statements}' four parameters from {@code first}; returns the next index. */
  int bind(Connection c, PreparedStatement s, Plan plan, int first) throws SQLException {
    s.setInt(first, AdvisoryLocks.TABLE_WRITES);
    s.setInt(first + 1, tableKey);
    s.setInt(first + 2, AdvisoryLocks.MARKET_LOCATION);
    s.setArray(first + 3, c.createArrayOf("int4", plan.locations()));
    return first + 4;
  }

  /**
   * Refuses the write unless its transaction runs at {@code READ COMMITTED}; {@code isolation} is
   * the first column of the first statement's row.
   */
  void requireReadCommitted(String isolation) {
    if (!"read committed".equals(isolation)) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot write to table "
              + table
              + ": the transaction runs at isolation level "
              + isolation
              + ", and MeterStore's writes order concurrent writers of one reading only under read"
              + " committed (set the data source's isolation, or the role's"
              + " default_transaction_isolation, to read committed); nothing was written");
    }
  }

  /** The lock key of market location {@code malo} in {@code schema.table}: 0 to 65,535. */
  static int locationKey(String schema, String table, String malo) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  (schema + '\u001f' + table + '\u001f' + malo).getBytes(StandardCharsets.UTF_8));
      return ((hash[0] & 0xff) << 8) | (hash[1] & 0xff);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
