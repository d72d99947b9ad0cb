package org.meterstore;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.cold.snapshot.SnapshotTag;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.internal.imports.HistoryImport;
import org.meterstore.maintenance.window.TierWatermark;

/**
 * One declared table of a catalog ({@link MeterCatalog#table(String)}) and everything done to that
 * table alone: write ({@link #append}, {@link #hotWriter}), import settled history, read and
 * re-assert its watermark W, pin settlements with tags, check its cold schema and object store,
 * remove orphan files, purge it. A capability scoped to one table is added here, not to the
 * catalog.
 *
 * <p>Getting a handle checks only that the table is declared; each call reaches the tiers then, and
 * refuses a table missing from a tier it needs with {@code CONFIG} (see {@link #missingTiers()}).
 * Holds no resource; thread-safe; usable while its catalog is open. Every time-dependent call takes
 * the caller's {@code now} (UTC).
 */
public final class MeterTable {
  private final MeterCatalog catalog;
  private final TableDefinition definition;

  MeterTable(MeterCatalog catalog, TableDefinition definition) {
    this.catalog = catalog;
    this.definition = definition;
  }

  /** The table's name. */
  public String name() {
    return definition.name();
  }

  /** The table's declaration (columns, policy). */
  public TableDefinition definition() {
    return definition;
  }

  /**
   * The tiers in which this table does not exist: both before {@link MeterCatalog#createTables},
   * both after {@link #purge}, one after a purge interrupted between its steps. Reading, writing or
   * maintaining a table never creates it; those calls refuse a missing table with {@code CONFIG}.
   *
   * @throws MeterStoreException {@code STORAGE} when a tier cannot be reached
   */
  public Set<Tier> missingTiers() {
    Set<Tier> missing = EnumSet.noneOf(Tier.class);
    if (!catalog.hotStore().partitions().tableExists(definition)) {
      missing.add(Tier.HOT);
    }
    if (!catalog.coldStore().tableExists(name())) {
      missing.add(Tier.COLD);
    }
    return missing;
  }

  /**
   * Writes a batch to this table, each reading to the tier its {@code from} belongs to (DESIGN §
   * 4): at or above the watermark W to PostgreSQL, below it (a <em>late correction</em>) to Iceberg
   * as a correction append, without moving W. After writing, W is read again; if archival moved it
   * meanwhile, the readings that now lie below it are appended to the cold tier too (both writes
   * are idempotent), so no reading is ever left in PostgreSQL below W.
   *
   * <p>Outcomes per reading, in batch order: {@code INSERTED}, {@code SUPERSEDED}, {@code SHADOWED}
   * or {@code DUPLICATE} (a redelivery, nothing stored), with the tier that holds it.
   *
   * <p>A batch that breaks a rule checkable without writing — bad input, a value restated under a
   * stored version, a second network operator, overlapping spans, against what either tier holds —
   * is refused before either tier is written. A failure after a part landed (storage, or archival
   * racing the write) names the readings that landed; the same batch, retried, completes and
   * reports them {@code DUPLICATE}. Readings without an operator version get the arrival version of
   * {@code now}, so retry those with the same {@code now}.
   *
   * @param now the write instant: {@code recorded_at} of every stored row, UTC
   * @throws MeterStoreException {@code INVALID_INPUT} when a reading breaks a rule of the api or
   *     the table; {@code INTEGRITY_VIOLATION} naming the reading and the rule; {@code
   *     LOCK_TIMEOUT} (retryable) when a partition could not be attached in time or a window of the
   *     batch is being archived; {@code STORAGE} (retryable) when a tier fails
   */
  public WriteResult append(List<Reading> batch, Instant now) {
    return catalog.appender().append(definition, batch, MeterCatalog.requireNow(now));
  }

  /**
   * {@link #importHistory(ImportSource, Instant, ImportOptions)} with {@link
   * ImportOptions#DEFAULTS}.
   */
  public ImportResult importHistory(ImportSource source, Instant now) {
    return importHistory(source, now, ImportOptions.DEFAULTS);
  }

  /**
   * Imports settled history from {@code source} straight into this table's cold tier ({@code
   * docs/import.md}). The source is read twice: first every record is validated with the api's
   * builders and the table's rules and the import's range is learned — the partition windows from
   * its earliest to its latest {@code from}; then, holding the table's archival lease, it is
   * written in chunks of about {@code options.chunkRows()} readings, each committed on its own:
   * readings below W as late corrections (the checks of {@link #append}'s cold part: one operator,
   * no restated value, no overlap; repeats reported {@code DUPLICATE}; W unchanged), readings at or
   * above W as one window {@code [W, E)} like an archival commit (the same checks, then W moves to
   * E, the end of the window of the chunk's latest {@code from}, with the hot floor raised to E
   * first). W never moves back and no hot row is ever below it.
   *
   * <p>Re-running an import is safe: what an earlier run committed lies below W and is reported
   * {@code DUPLICATE}. A run that failed or was killed between chunks leaves the chunks committed
   * before; the re-run completes it. Readings without {@code recorded_at} get {@code now}, and
   * readings without an operator version the arrival version of their {@code recorded_at}: re-run
   * those with the same {@code now}.
   *
   * @param now the import's instant (UTC): the range must end at or before {@code now -
   *     settlement_lag}; stamped as {@code meterstore.archived-at}
   * @throws MeterStoreException {@code INVALID_INPUT} for a bad record (naming the CSV line or
   *     Parquet row), a range that is not settled, or one that overlaps hot rows (nothing written);
   *     {@code INTEGRITY_VIOLATION} when a reading restates a stored version or names a second
   *     operator or overlaps a stored span (the chunks before stay committed); {@code LOCK_TIMEOUT}
   *     (retryable) when another process holds the archival lease or the floor could not be raised
   *     in time; {@code STORAGE} (retryable) when a tier fails
   */
  public ImportResult importHistory(ImportSource source, Instant now, ImportOptions options) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(options, "options");
    return new HistoryImport(
            catalog.hotStore(), cold(), definition, source, MeterCatalog.requireNow(now), options)
        .run();
  }

  /**
   * A writer for steady ingest into this table's hot tier: it reads W once, now, and refuses
   * readings below it with {@code INVALID_INPUT} naming {@link #append}.
   *
   * @throws MeterStoreException {@code STORAGE} when the cold tier cannot say what W is; {@code
   *     INVARIANT_VIOLATED} when W went back below the last W MeterStore committed
   */
  public HotWriter hotWriter() {
    return new HotWriter(catalog.hotStore(), definition, tierWatermark().read());
  }

  /**
   * The watermark W (UTC), read now from the cold tier's current snapshot: readings with {@code
   * from} below it live in Iceberg, the others in PostgreSQL. {@code 1970-01-01T00:00:00Z} before
   * the first archival or import.
   *
   * <p>During a rollback incident this is the rolled-back W, as the cold tier says it (decisions
   * refuse the table then; {@code system.tables} shows both values).
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when a foreign tool expired the snapshot
   *     that carries W; {@code STORAGE} when the catalog cannot be read
   */
  public Instant watermark() {
    return tierWatermark().unguarded(TierWatermark.Unguarded.DISPLAY);
  }

  /**
   * Re-stamps W onto the current cold snapshot when it carries none (after foreign maintenance);
   * never moves W. See {@link ColdTable#reassertWatermark}.
   *
   * @return whether a re-stamp commit was made
   */
  public boolean reassertWatermark(Instant now) {
    return cold().reassertWatermark(MeterCatalog.requireNow(now));
  }

  /**
   * Pins the current cold snapshot under tag {@code name} (a settlement pin, DESIGN § 5): queries
   * in the {@code as_of_tag} read mode read exactly that snapshot, and MeterStore's snapshot expiry
   * keeps it until it is untagged. Changes only the Iceberg table's refs; W and the data are
   * untouched.
   *
   * @param name 1 to 100 letters, digits, {@code .}, {@code _} or {@code -}, e.g. {@code
   *     settlement-2026-10}
   * @return the new tag with its snapshot, W and MeterStore stamp
   * @throws MeterStoreException {@code INVALID_INPUT} when the name breaks the rule, the tag exists
   *     (untag it first to move it) or the table has no snapshot; nothing is changed
   */
  public SnapshotTag tag(String name) {
    cold().tagSnapshot(name);
    return tagNamed(name);
  }

  /**
   * {@link #tag(String)} for snapshot {@code snapshotId} (see {@code system.snapshots}).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} also when the snapshot does not exist
   *     (expired or never committed)
   */
  public SnapshotTag tag(String name, long snapshotId) {
    cold().tagSnapshot(name, snapshotId);
    return tagNamed(name);
  }

  /**
   * Removes tag {@code name}; its snapshot is then expired like any other.
   *
   * @return the id of the snapshot it tagged
   * @throws MeterStoreException {@code INVALID_INPUT} when the table has no such tag (nothing
   *     changed)
   */
  public long untag(String name) {
    return cold().untagSnapshot(name);
  }

  /** The tags, sorted by name (also {@code system.tags}). */
  public List<SnapshotTag> tags() {
    return cold().tags();
  }

  /**
   * Compares the configured columns with the cold table's schema by name (DESIGN § 5): what {@code
   * meterstore check} reports. A table that cannot be loaded is reported {@code UNKNOWN}, never
   * compatible.
   *
   * @throws MeterStoreException {@code STORAGE} (retryable) when the catalog or the object store
   *     does not answer
   */
  public DriftReport checkDrift() {
    return cold().checkDrift();
  }

  /**
   * Asks the object store about the table's current metadata file: whether the store answers, not
   * whether the file is there (one request, bounded by the configured timeouts). With a catalog
   * that serves metadata itself, the way to learn that the lake is down while W stays readable.
   *
   * @throws MeterStoreException {@code STORAGE} (retryable) naming the table when the catalog or
   *     the object store does not answer
   */
  public void checkStorage() {
    cold().requireStorageAnswers();
  }

  /**
   * Orphan-file removal for this table (files under its location that nothing retained references):
   * a dry run lists them, a removal deletes them. The CLI's {@code orphans}; the maintenance loop's
   * optional step ({@code MaintenanceBuilder.removeOrphanFiles}).
   */
  public OrphanFiles orphanFiles() {
    return new OrphanFiles(this);
  }

  /**
   * State pins for readers outside MeterStore (Spark, Trino): a job pins the state (S, W) it reads
   * for as long as it runs, and archival waits for it; the CLI's {@code pin}, {@code unpin} and
   * {@code pins}.
   */
  public TablePins pins() {
    return new TablePins(this);
  }

  /**
   * Destroys this table in both tiers: the PostgreSQL parent with every partition (attached or
   * detached leftovers), MeterStore's bookkeeping rows for it (registry, leases, pins), and the
   * Iceberg table with its data and metadata files. The only operation that deletes readings;
   * logged at WARN. The handle stays usable: {@link MeterCatalog#createTables} creates the table
   * again, empty.
   *
   * @param confirmName must equal {@link #name()}, or nothing is touched
   * @return what was removed
   * @throws MeterStoreException {@code INVALID_INPUT} when the names differ (nothing touched);
   *     {@code LOCK_TIMEOUT} when archival holds the table or a reader blocks the drop (nothing
   *     touched in the hot tier; run it again); {@code STORAGE} when a tier fails (run it again: a
   *     purge is idempotent)
   */
  public PurgeResult purge(String confirmName) {
    try {
      return new TablePurge(catalog.hotStore(), catalog.coldStore()).purge(name(), confirmName);
    } finally {
      catalog.forgetColdTable(name());
    }
  }

  /** The catalog this handle belongs to. */
  MeterCatalog catalog() {
    return catalog;
  }

  /** The cold table behind this handle, opened once per catalog. */
  ColdTable cold() {
    return catalog.coldTable(name());
  }

  private TierWatermark tierWatermark() {
    return new TierWatermark(catalog.hotStore(), cold(), definition);
  }

  private SnapshotTag tagNamed(String name) {
    return tags().stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new MeterStoreException(
                    ErrorKind.STORAGE,
                    "Cannot read tag "
                        + name
                        + " of table "
                        + name()
                        + " back: it was committed, then removed by another process"));
  }

  @Override
  public String toString() {
    return "MeterTable[" + name() + "]";
  }
}
