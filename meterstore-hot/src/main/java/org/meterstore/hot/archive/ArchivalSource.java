package org.meterstore.hot.archive;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.IntConsumer;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.TableDefinition;

/**
 * The hot tier as the source of archival runs (DESIGN § 6, steps 1, 3 and 6). Thread-safe. Every
 * method throws {@link org.meterstore.api.MeterStoreException}: {@code INVALID_INPUT} for a table
 * that was not created or a partition that does not exist, {@code STORAGE} (retryable) when the
 * database fails.
 */
public interface ArchivalSource {
  /**
   * Tries to take {@code table}'s archival lease without waiting: a session advisory lock on a
   * connection of its own, held until {@link ArchivalLease#close()}. Winning increments the table's
   * epoch in {@code <schema>.archival_leases} (recording {@code holder} and {@code now}).
   *
   * @param holder who holds it, for operators (host and process, say); at most 200 characters
   * @return the lease, or empty when another session holds it (nothing changed)
   */
  Optional<ArchivalLease> tryLease(TableDefinition table, String holder, Instant now);

  /**
   * The rows of one partition (attached, half-detached or detached) in {@link
   * TableDefinition#columns()} order and primary-key order, read with a keyset cursor: each chunk
   * of at most {@code chunkRows} rows is one short query ({@code WHERE (pk) > (last) ORDER BY pk
   * LIMIT n}), so memory holds one chunk. The iterable is re-iterable: every {@code iterator()}
   * starts over from the first row.
   *
   * @param chunkRows rows per query, at least 1
   * @param beforeChunk called with the chunk's number (0, 1, …) before each query after the first
   *     (so between chunks); for progress and fault injection
   */
  Iterable<Object[]> rows(
      TableDefinition table, String partition, int chunkRows, IntConsumer beforeChunk);

  /** The row count and exact value sum of one partition, computed by the database. */
  ContentDigest digest(TableDefinition table, String partition);

  /** The archival step recorded in {@code <schema>.tables} when the table was created. */
  Duration recordedArchivalStep(TableDefinition table);
}
