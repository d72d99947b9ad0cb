package org.meterstore.hot.pin;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;

/**
 * The registry of reader pins in MeterStore's schema. A pin is a row, so every process that shares
 * the database sees it: archival in one replica respects a query running in another. Pins expire on
 * their own, so a crashed reader cannot hold a partition forever. Thread-safe. Obtain through
 * {@code HotStore.pins()}.
 */
public interface ReaderPins {
  /**
   * Registers {@code [from, to)} of {@code table} as read until released or until {@code now +
   * ttl}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for an empty window or a non-positive ttl;
   *     {@code STORAGE} when the database is unreachable
   */
  ReaderPin pin(String table, Instant from, Instant to, Instant now, Duration ttl);

  /**
   * Reads what a query execution needs of {@code table}'s hot tier in one round trip: the committed
   * watermark and every partition (one catalog snapshot, as {@code Partitions.list}), and, when
   * {@code pinFrom} is not null, pins {@code [pinFrom, pinTo)} until {@code now + ttl} in the same
   * round trip, after the listing.
   *
   * @param pinFrom the pinned window's lower bound (inclusive, UTC), or null to pin nothing
   * @param pinTo the pinned window's upper bound (exclusive, UTC); ignored without {@code pinFrom}
   * @throws MeterStoreException {@code CONFIG} when the table's parent does not exist; {@code
   *     INVALID_INPUT} for an empty window or a non-positive ttl; {@code STORAGE} when the database
   *     is unreachable. Nothing is pinned then.
   */
  default ReaderView view(
      TableDefinition table, Instant pinFrom, Instant pinTo, Instant now, Duration ttl) {
    return view(table, pinFrom, pinTo, now, ttl, null);
  }

  /**
   * As {@link #view(TableDefinition, Instant, Instant, Instant, Duration)}, and when {@code entry}
   * is not null, reads the cold table's metadata pointer from Iceberg's JDBC catalog in the same
   * round trip, with the committed watermark and before the listing. Only for an entry {@link
   * #catalogPointer} has found: the catalog's table must be readable in this database.
   */
  ReaderView view(
      TableDefinition table,
      Instant pinFrom,
      Instant pinTo,
      Instant now,
      Duration ttl,
      CatalogEntry entry);

  /**
   * The metadata location Iceberg's JDBC catalog holds for {@code entry}, read through this
   * database; empty when the catalog's table is not visible here (the catalog lives elsewhere, or
   * this role may not read it) or holds no such row.
   *
   * @throws MeterStoreException {@code STORAGE} when the database is unreachable
   */
  java.util.Optional<String> catalogPointer(CatalogEntry entry);

  /** Releases a pin; releasing one that is gone already is not an error. */
  void release(long id);

  /**
   * Ends the read transaction open on {@code connection} (rolled back: it only read) and releases
   * the pins {@code ids} in the same round trip, so a query execution whose hot scan ran on that
   * connection pays no round trip of its own for the release. The connection must be in
   * manual-commit mode with a transaction open; it stays in manual-commit mode with none open.
   * Releasing a pin that is gone already is not an error.
   *
   * @throws MeterStoreException {@code STORAGE} when the database does not answer (the pins then
   *     expire on their own; the connection should be discarded)
   */
  void releaseAfter(java.sql.Connection connection, List<Long> ids);

  /**
   * Pins {@code table}'s two-tier state (S, W) for {@code holder} until released or until {@code
   * now + ttl}; it also pins the hot window from W up, like a query's pin. The caller must hold the
   * table's archival lease while it reads S and W and calls this, so that no archival run moves W
   * in between.
   *
   * @param snapshotId the cold snapshot S, or null when the cold table has none
   * @throws MeterStoreException {@code INVALID_INPUT} for a blank holder or a non-positive ttl;
   *     {@code STORAGE} when the database is unreachable
   */
  StatePin pinState(
      String table, Long snapshotId, Instant watermark, String holder, Instant now, Duration ttl);

  /** The state pins of {@code table} that have not expired at {@code now}, oldest first. */
  List<StatePin> statePins(String table, Instant now);

  /** The pins of {@code table} that have not expired at {@code now}, oldest first. */
  List<ReaderPin> active(String table, Instant now);

  /** Deletes pins that expired at or before {@code now}; returns how many. */
  int purgeExpired(Instant now);
}
