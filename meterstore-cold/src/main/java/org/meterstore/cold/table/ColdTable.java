package org.meterstore.cold.table;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.CompactionResult;
import org.meterstore.cold.commit.CorrectionCheck;
import org.meterstore.cold.commit.CorrectionResult;
import org.meterstore.cold.commit.Encoders;
import org.meterstore.cold.commit.ImportWindowResult;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.cold.orphan.OrphanReport;
import org.meterstore.cold.snapshot.ExpiryResult;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotTag;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.view.ResolvedView;

/**
 * One MeterStore table's cold tier: an Iceberg table (format v2, Parquet) whose snapshots carry the
 * watermark W. Get one from {@link ColdStore#table}.
 *
 * <p>Rows are {@link org.meterstore.api.table.StoredRow} arrays in {@link
 * TableDefinition#columns()} order: text as {@code String}, timestamptz as {@code Instant} (UTC),
 * date as {@code LocalDate}, decimals as {@code BigDecimal}; null where a nullable column is empty.
 *
 * <p>Thread-safe: every call re-reads the table from the catalog, so calls from several threads or
 * processes see each other's commits. Concurrent commits are serialised by the catalog's atomic
 * swap; MeterStore's protocol decides what the loser does. Every failure is a {@link
 * org.meterstore.api.MeterStoreException}; each method says what a failure leaves behind.
 */
public interface ColdTable {

  /** The definition this table was opened with. */
  TableDefinition definition();

  /**
   * The Iceberg table, freshly loaded: an escape hatch for tests and for operators' out-of-band
   * tools (a foreign engine's maintenance, forensic reads). MeterStore's own modules never use it:
   * they read through the typed methods here ({@link #watermark()}, {@link #watermarkAt}, {@link
   * #archivalCommits()}, {@link #view}); an architecture test enforces that. Commits made through
   * it bypass MeterStore's protocol.
   */
  Table icebergTable();

  /**
   * The archival step recorded in the table's {@code meterstore.archival-step} property when
   * MeterStore created it, or empty for a table created by another tool (DESIGN § 6 step 3: the
   * archival job compares it with the configured step).
   */
  Optional<Duration> recordedArchivalStep();

  /**
   * The watermark W: readings with {@code from < W} live here. Read from the current snapshot's
   * {@code meterstore.watermark}; a snapshot without one (a foreign commit) is walked back through
   * its parents to the nearest one that has it. A table without snapshots, or whose whole history
   * carries none, has W = {@code 1970-01-01T00:00:00Z}.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVARIANT_VIOLATED} when the walk reaches
   *     a parent that no longer exists (expired by a foreign tool) before finding W; {@code
   *     STORAGE} when the catalog cannot be read
   */
  Instant watermark();

  /**
   * {@link #watermark()}, checked against the hot tier's committed watermark (see {@link
   * SnapshotView#watermarkNotBelow}): what archival and routed writes use, so that a table rolled
   * back behind MeterStore's last commit halts instead of filling the gap with nothing.
   *
   * @param committed the hot tier's committed watermark, {@link Instant#EPOCH} when none was
   *     recorded
   * @throws org.meterstore.api.MeterStoreException {@code INVARIANT_VIOLATED} when W lies below
   *     {@code committed}; as {@link #watermark()} otherwise
   */
  default Instant watermarkNotBelow(Instant committed) {
    return view(SnapshotSelector.current()).watermarkNotBelow(committed);
  }

  /**
   * The watermark W as snapshot {@code snapshotId} has it: its own {@code meterstore.watermark}, or
   * that of its nearest ancestor that carries one (the same parent walk as {@link #watermark()});
   * the epoch when no ancestor does. A hole in the history means W is unknown, never the epoch.
   *
   * @return W in UTC, never null
   * @throws org.meterstore.api.MeterStoreException {@code QUERY} naming the snapshot when it does
   *     not exist (expired or never committed); {@code INVARIANT_VIOLATED} when the walk reaches a
   *     parent that no longer exists before finding W; {@code STORAGE} when the catalog cannot be
   *     read
   */
  Instant watermarkAt(long snapshotId);

  /**
   * The archival commits still in the table's metadata, in sequence-number order (oldest first),
   * each with its parsed summary (DESIGN § 5). Corrections, re-stamps and foreign commits are not
   * listed, nor is a commit whose summary does not parse (it is not MeterStore's), nor one whose
   * snapshot was expired. Loads the table afresh; never null.
   *
   * @throws org.meterstore.api.MeterStoreException {@code STORAGE} when the catalog cannot be read
   */
  List<ArchivalCommit> archivalCommits();

  /**
   * A view of the snapshot {@code selector} names, pinned by id: what it plans and reads, and its
   * W, come from that one snapshot whatever commits land afterwards. An unknown snapshot, tag or
   * instant is an error, never a fallback to another snapshot.
   *
   * @throws org.meterstore.api.MeterStoreException {@code QUERY} naming the snapshot, tag or
   *     instant when it does not resolve to a retained snapshot (the message points to {@code
   *     system.snapshots}); {@code INVARIANT_VIOLATED} when the snapshot's W is unknown (a hole in
   *     its history); {@code STORAGE} when the catalog or the table's metadata cannot be read
   */
  SnapshotView view(SnapshotSelector selector);

  /**
   * The view of the current snapshot of the table's metadata file at {@code metadataLocation}: a
   * location its catalog held (read by the caller, in its own round trip). The file is read once
   * per location and kept while the location stays the latest asked for; the catalog is not asked.
   *
   * @throws org.meterstore.api.MeterStoreException as {@link #view}
   */
  SnapshotView viewAt(String metadataLocation);

  /**
   * The metadata location the catalog holds for this table now (one catalog round trip).
   *
   * @throws org.meterstore.api.MeterStoreException {@code STORAGE} when the catalog cannot be read
   */
  String metadataLocation();

  /** This table's row in Iceberg's JDBC catalog; empty when another kind of catalog holds it. */
  java.util.Optional<CatalogRow> catalogRow();

  /**
   * The table's resolved view in the catalog ({@code <table>_current}), published after every
   * commit that lands; {@link ResolvedView#NONE} when the store publishes no views.
   */
  default ResolvedView resolvedView() {
    return ResolvedView.NONE;
  }

  /**
   * Writes one archival window as Parquet files and commits them in one snapshot that moves W to
   * {@code request.to()}, with the summary of DESIGN § 5.
   *
   * <p>{@code rows} is iterated once per commit attempt (so it must be re-iterable, e.g. a fresh
   * keyset cursor over the detached partition) and never held in memory beyond one chunk of {@link
   * ColdConfig#chunkRows()} rows. Every file is sorted by {@code (malo_id, from)}. Rows grouped by
   * MaLo in ascending order (the hot tier's primary-key order) are written a few thousand at a time
   * into files of about one chunk of rows each, covering disjoint MaLo ranges; rows in any other
   * order are sorted a chunk at a time.
   *
   * <p>Each attempt re-reads the table first. It returns {@link
   * org.meterstore.cold.commit.ArchiveStatus#LOST_RACE} without writing when another commit moved W
   * past {@code request.from()}; it fails with {@code QUARANTINED} when the schema drifted. A
   * commit the catalog refuses has its data files deleted and is retried per {@link
   * ColdConfig#commitPolicy()}; after an unknown commit state the files are kept and the table is
   * re-read to learn whether the commit landed (a later attempt also looks for it first).
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} when a row lies outside
   *     the window (nothing committed, files deleted); {@code STORAGE} when every attempt failed
   *     (files of refused attempts deleted, files of attempts in unknown state kept for orphan
   *     removal); {@code QUARANTINED} on schema drift
   */
  default ArchiveResult archive(ArchiveRequest request, Iterable<Object[]> rows) {
    return archive(request, rows, () -> true);
  }

  /**
   * {@link #archive(ArchiveRequest, Iterable)}, asking {@code leaseHeld} immediately before each
   * commit attempt whether the caller still holds its archival lease (DESIGN § 6 step 1: a lease
   * lost mid-run cannot commit). When it answers false the call returns {@link
   * org.meterstore.cold.commit.ArchiveStatus#LEASE_LOST} after deleting the attempt's files.
   */
  ArchiveResult archive(ArchiveRequest request, Iterable<Object[]> rows, BooleanSupplier leaseHeld);

  /**
   * Imports one window of settled history at W like an archival window: {@code rows} (readings as
   * {@link org.meterstore.api.table.StoredRow#of} makes them, every {@code from} in {@code
   * [request.from(), request.to())}) are classified with the rules of {@link #appendCorrections} —
   * against each other and against the stored spans just below W (one network operator, no value
   * restated under a version, no overlapping spans) — a reading the batch repeats is reported
   * {@code DUPLICATE} and not written, the rest are written sorted by {@code (malo_id, obis_code,
   * from)} and committed by the protocol of {@link #archive}: W moves to {@code request.to()}, the
   * summary carries the lease epoch and the digest of the appended rows ({@code
   * meterstore.operation = archive}). Where no stored row can decide a reading (nothing stored at
   * or above W, no stored span crossing it) the batch is checked against itself alone, and its
   * Parquet files are encoded in slices on {@code encoders} beside the calling thread. The batch is
   * held in memory.
   *
   * @param encoders threads the caller lends for encoding ({@link Encoders#CALLER} for none)
   * @param leaseHeld asked before each commit attempt, as for {@link #archive}
   * @return the archival result ({@code LOST_RACE} without writing when W is already past {@code
   *     request.from()}) and, when committed, one outcome per reading
   * @throws org.meterstore.api.MeterStoreException {@code INTEGRITY_VIOLATION} naming the reading
   *     and the rule (nothing written); {@code INVALID_INPUT} when a reading lies outside the
   *     window; {@code QUARANTINED} on schema drift; {@code STORAGE} as {@link #archive}
   */
  ImportWindowResult importWindow(
      ArchiveRequest request, List<Object[]> rows, Encoders encoders, BooleanSupplier leaseHeld);

  /**
   * Appends late corrections: readings whose {@code from} is below W. They are sorted and written
   * with the archival layout; W does not move (the commit carries the current W forward). A reading
   * whose merge key and version are already stored with the same value, unit and quality is a
   * redelivery: reported {@code DUPLICATE} and not appended. Only the partitions and keys of the
   * batch are scanned.
   *
   * @param readings the corrections, each stamped with {@link StoredReading#accept}
   * @param now the caller's current time, stamped as {@code meterstore.archived-at}
   * @throws org.meterstore.api.MeterStoreException {@code INTEGRITY_VIOLATION} when a reading
   *     restates a stored version with a different value, unit or quality (nothing appended);
   *     {@code INVALID_INPUT} when a reading is at or above W (it belongs to the hot tier); {@code
   *     STORAGE} when every commit attempt failed
   */
  CorrectionResult appendCorrections(List<StoredReading> readings, Instant now);

  /**
   * Appends late corrections given as rows ({@link org.meterstore.api.table.StoredRow#of}), as
   * {@link #appendCorrections(List, Instant)} does with the readings they were made of.
   */
  CorrectionResult appendCorrectionRows(List<Object[]> rows, Instant now);

  /**
   * Appends the readings of {@code checked} as {@link #appendCorrections(List, Instant)} does,
   * reusing the check's classification while the table is still at the snapshot it was made
   * against: the stored spans are then read once for check and append together. A commit made in
   * between (another writer, archival) makes the append classify the batch again, so the outcome is
   * the same as without the check.
   *
   * @param checked what {@link #checkCorrections} returned for this batch on this table
   * @param now as for {@link #appendCorrections(List, Instant)}
   */
  CorrectionResult appendCorrections(CorrectionCheck checked, Instant now);

  /**
   * The plan of {@link #appendCorrections} without its effect: classifies {@code readings} against
   * the current snapshot exactly as an append would (same rules, same errors) and writes nothing. A
   * deployment checks the cold part of a batch with it before writing either tier, so a batch that
   * breaks a rule is refused before anything lands. A commit made between this call and the append
   * can still change the append's verdict; {@link #appendCorrections(CorrectionCheck, Instant)}
   * classifies again exactly then.
   *
   * @return the outcomes (one per reading, in order) and the snapshot they were decided at
   * @throws org.meterstore.api.MeterStoreException as {@link #appendCorrections} does, before
   *     writing
   */
  CorrectionCheck checkCorrections(List<StoredReading> readings);

  /** Every snapshot, ordered by sequence number (oldest first), with its W and tags. */
  List<SnapshotInfo> snapshots();

  /**
   * Tags the current snapshot with {@code name}: a named, retained snapshot that expiry never
   * removes (a settlement pin) until it is untagged. One catalog commit that changes only the
   * table's refs; W and the data are untouched.
   *
   * @param name a tag name by {@link SnapshotTag#requireValidName} (e.g. {@code
   *     settlement-2026-10})
   * @return the tagged snapshot's id
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} when the name breaks the
   *     rule, the table has no snapshot, or a tag (or branch) of that name exists (nothing changed:
   *     untag it first to move it)
   */
  long tagSnapshot(String name);

  /**
   * Tags snapshot {@code snapshotId} with {@code name}; see {@link #tagSnapshot(String)}.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} also when the snapshot
   *     does not exist (expired or never committed)
   */
  long tagSnapshot(String name, long snapshotId);

  /**
   * Removes tag {@code name}. Its snapshot stays until an expiry run finds it past MeterStore's
   * retention and not otherwise kept.
   *
   * @return the id of the snapshot it tagged
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} when there is no tag of
   *     that name (nothing changed)
   */
  long untagSnapshot(String name);

  /** The table's tags, sorted by name, each with its snapshot's W and MeterStore stamp. */
  List<SnapshotTag> tags();

  /** The rows of the current snapshot, in no particular order. Close the iterable. */
  CloseableIterable<Object[]> read();

  /**
   * The rows of snapshot {@code snapshotId}.
   *
   * @throws org.meterstore.api.MeterStoreException {@code QUERY} naming the snapshot when it does
   *     not exist (expired or never), never a fallback to another snapshot
   */
  CloseableIterable<Object[]> readSnapshot(long snapshotId);

  /**
   * The rows of the snapshot tagged {@code tag}.
   *
   * @throws org.meterstore.api.MeterStoreException {@code QUERY} naming the tag when there is no
   *     such tag
   */
  CloseableIterable<Object[]> readTag(String tag);

  /**
   * Re-stamps W onto the current snapshot when it carries none (after foreign maintenance): an
   * empty commit whose summary carries the W the history already says. Never moves W.
   *
   * @param now the caller's current time
   * @return whether a re-stamp commit was made (false: the current snapshot already carries W, or
   *     the table has no snapshot)
   * @throws org.meterstore.api.MeterStoreException {@code INVARIANT_VIOLATED} when the history no
   *     longer says what W is
   */
  boolean reassertWatermark(Instant now);

  /**
   * Expires snapshots by MeterStore's policy alone: a snapshot committed before {@code now -
   * policy.snapshotRetention()} is removed unless it is current, tagged, or among the newest {@code
   * policy.minSnapshotsToKeep()}. Re-stamps W first. The table's {@code history.expire.*}
   * properties cannot widen the set: if Iceberg would remove more, nothing is removed and the call
   * fails. Data files still referenced are never deleted; files only expired snapshots referenced
   * (for example those a foreign compaction replaced) are.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVARIANT_VIOLATED} when Iceberg would
   *     expire more than MeterStore's plan (nothing expired); {@code CONFIG} when the table forbids
   *     garbage collection
   */
  default ExpiryResult expireSnapshots(Instant now, TablePolicy policy) {
    return expireSnapshots(now, policy, Set.of());
  }

  /**
   * {@link #expireSnapshots(Instant, TablePolicy)} that also keeps the snapshots {@code retain}
   * names, whatever their age: the archival loop passes the commits whose hot partitions are not
   * reclaimed yet, whose digests their reclamation re-checks.
   *
   * @param retain snapshot ids to keep; ids that do not exist are ignored
   */
  ExpiryResult expireSnapshots(Instant now, TablePolicy policy, Set<Long> retain);

  /**
   * Rewrites the small data files of closed months into files near the target size ({@link
   * ColdConfig#targetFileSizeBytes()}), in one Iceberg {@code RewriteFiles} commit that adds and
   * removes no row. A month is closed when it ends at or before W; the month W lies in still
   * receives archival windows and is left alone. A file is small below three quarters of the target
   * size; a month is rewritten when it has two or more small files, at most {@code maxPartitions}
   * months per call. Months with delete files, and months whose small files hold one and the same
   * version from several commits (merged, they would look to merge elision like one commit's file),
   * are skipped.
   *
   * <p>The new files are written by MeterStore's own writer (sorted by {@code (malo_id, from)}, the
   * table's sort order, Parquet properties and bloom filters), read back, and their digest (row
   * count, value sum) must equal that of the rows read, else nothing is committed. {@code
   * leaseHeld} is asked just before each commit attempt. The snapshot carries the unchanged W
   * ({@code meterstore.operation = compact}) and is refused unless the table is still at the
   * snapshot the attempt planned from; a commit that lands in between (archival, a correction, a
   * foreign engine) makes the attempt delete its files and start over, per {@link
   * ColdConfig#commitPolicy()}. Older snapshots keep referencing the old files: readers pinned to
   * them are unaffected, and expiry deletes the files once no retained snapshot needs them.
   *
   * @param now the caller's current time, stamped as {@code meterstore.archived-at}
   * @param leaseEpoch the archival lease epoch held, stamped as {@code meterstore.lease-epoch}
   * @param maxPartitions the most months rewritten by this call, at least 1
   * @return what was rewritten; {@code LEASE_LOST} (files deleted) when {@code leaseHeld} said no
   * @throws org.meterstore.api.MeterStoreException {@code INVARIANT_VIOLATED} when the new files'
   *     digest differs from the rows read (nothing committed, new files deleted); {@code
   *     QUARANTINED} on schema drift; {@code STORAGE} when every attempt failed (nothing committed;
   *     files of attempts in unknown state are left for orphan removal)
   */
  CompactionResult compact(
      Instant now, long leaseEpoch, int maxPartitions, BooleanSupplier leaseHeld);

  /**
   * Finds, and unless {@code dryRun} deletes, files under the table's location that no retained
   * snapshot or metadata file references and that were last modified before {@code now - minAge}.
   * The minimum age protects files of commits still in flight. Runs in this JVM through the
   * FileIO's prefix listing.
   *
   * @throws org.meterstore.api.MeterStoreException {@code CONFIG} when the FileIO cannot list
   */
  OrphanReport removeOrphanFiles(Instant now, Duration minAge, boolean dryRun);

  /** The dry run of {@link #removeOrphanFiles}: lists what would be deleted and deletes nothing. */
  default OrphanReport findOrphanFiles(Instant now, Duration minAge) {
    return removeOrphanFiles(now, minAge, true);
  }

  /**
   * Asks the object store about this table's current metadata file: whether the store answers, not
   * whether the file is there. One request, bounded by the configured timeouts; for a catalog that
   * serves metadata itself (REST), the way to learn that the lake is down while W stays readable.
   *
   * @throws org.meterstore.api.MeterStoreException {@code STORAGE} (retryable) naming the table
   *     when the catalog or the object store does not answer
   */
  void requireStorageAnswers();

  /**
   * Compares the configured columns with the cold table's schema by name (DESIGN § 5). Loads the
   * table afresh; a table that cannot be loaded is reported {@link
   * org.meterstore.cold.drift.DriftVerdict#UNKNOWN}, never compatible.
   *
   * @throws org.meterstore.api.MeterStoreException {@code STORAGE} (retryable) when the catalog or
   *     the object store does not answer: an outage is no drift, and quarantining a table for it
   *     would stop its archival until an operator looked
   */
  DriftReport checkDrift();

  /**
   * {@link #checkDrift()}, throwing when the table is not compatible.
   *
   * @throws org.meterstore.api.MeterStoreException {@code QUARANTINED} naming the table and reasons
   */
  default void requireNoDrift() {
    checkDrift().requireCompatible();
  }
}
