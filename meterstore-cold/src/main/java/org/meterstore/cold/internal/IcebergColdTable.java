package org.meterstore.cold.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
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
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.cold.internal.catalog.StoreProbe;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.commit.ArchivalCommitReader;
import org.meterstore.cold.internal.commit.ArchivalCommitter;
import org.meterstore.cold.internal.commit.CommitCounter;
import org.meterstore.cold.internal.commit.CorrectionAppender;
import org.meterstore.cold.internal.commit.ImportCommitter;
import org.meterstore.cold.internal.commit.StoredReach;
import org.meterstore.cold.internal.commit.WriteSettings;
import org.meterstore.cold.internal.compact.Compactor;
import org.meterstore.cold.internal.drift.SchemaDrift;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.internal.orphan.OrphanScanner;
import org.meterstore.cold.internal.snapshot.Expirer;
import org.meterstore.cold.internal.snapshot.IcebergSnapshotView;
import org.meterstore.cold.internal.snapshot.PlannedFiles;
import org.meterstore.cold.internal.snapshot.Restamper;
import org.meterstore.cold.internal.snapshot.SnapshotLister;
import org.meterstore.cold.internal.snapshot.SnapshotSelection;
import org.meterstore.cold.internal.snapshot.Tagger;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.orphan.OrphanReport;
import org.meterstore.cold.outage.StorageFailures;
import org.meterstore.cold.scan.FooterCache;
import org.meterstore.cold.snapshot.ExpiryResult;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotTag;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.table.CatalogRow;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.cold.view.ResolvedView;

/**
 * The {@link ColdTable} over one Iceberg table: it wires the protocol classes together and owns
 * nothing but the table's access, its definition and the write settings. Every call loads the table
 * afresh.
 */
public final class IcebergColdTable implements ColdTable {
  private final TableAccess access;
  private final TableDefinition definition;
  private final WriteSettings settings;
  private final CommitCounter counter;
  private final PlannedFiles planned;
  private final FooterCache footers;
  private final ResolvedView resolvedView;
  private final StoredReach reach = new StoredReach();

  /**
   * The cold table behind {@code access}; its snapshot views plan through {@code planned} (the
   * store's cache of snapshots' files) and read footers through {@code footers} (the store's footer
   * cache); either may be null (no cache). {@code resolvedView} is the table's view, published
   * after every commit by the store.
   */
  public IcebergColdTable(
      TableAccess access,
      TableDefinition definition,
      WriteSettings settings,
      CommitCounter counter,
      PlannedFiles planned,
      FooterCache footers,
      ResolvedView resolvedView) {
    this.resolvedView = resolvedView;
    this.planned = planned;
    this.footers = footers;
    this.access = access;
    this.definition = definition;
    this.settings = settings;
    this.counter = counter;
  }

  /** The access, for tests that inject commit faults through {@link TableAccess#decorate}. */
  public TableAccess access() {
    return access;
  }

  @Override
  public TableDefinition definition() {
    return definition;
  }

  @Override
  public Table icebergTable() {
    return access.load();
  }

  @Override
  public Optional<Duration> recordedArchivalStep() {
    String step = access.load().properties().get(SummaryKeys.TABLE_ARCHIVAL_STEP);
    try {
      return Optional.ofNullable(step).map(Duration::parse);
    } catch (DateTimeParseException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot read the archival step of cold table "
              + definition.name()
              + ": "
              + SummaryKeys.TABLE_ARCHIVAL_STEP
              + " is '"
              + step
              + "', not an ISO-8601 duration",
          e);
    }
  }

  @Override
  public Instant watermark() {
    return access.read(table -> WatermarkReader.read(table, definition.name()));
  }

  @Override
  public Instant watermarkAt(long snapshotId) {
    return view(SnapshotSelector.snapshotId(snapshotId)).watermark();
  }

  @Override
  public List<ArchivalCommit> archivalCommits() {
    return ArchivalCommitReader.list(access.load());
  }

  @Override
  public SnapshotView view(SnapshotSelector selector) {
    return IcebergSnapshotView.of(access.frozen(), definition.name(), selector, planned, footers);
  }

  @Override
  public SnapshotView viewAt(String metadataLocation) {
    return IcebergSnapshotView.of(
        access.frozenAt(metadataLocation),
        definition.name(),
        SnapshotSelector.current(),
        planned,
        footers);
  }

  @Override
  public String metadataLocation() {
    return access.read(
        table ->
            table instanceof HasTableOperations h
                ? h.operations().current().metadataFileLocation()
                : null);
  }

  @Override
  public Optional<CatalogRow> catalogRow() {
    return access.catalogRow();
  }

  @Override
  public ResolvedView resolvedView() {
    return resolvedView;
  }

  @Override
  public ArchiveResult archive(
      ArchiveRequest request, Iterable<Object[]> rows, BooleanSupplier leaseHeld) {
    return new ArchivalCommitter(access, definition, settings, counter)
        .archive(request, rows, leaseHeld);
  }

  @Override
  public ImportWindowResult importWindow(
      ArchiveRequest request, List<Object[]> rows, Encoders encoders, BooleanSupplier leaseHeld) {
    return new ImportCommitter(access, definition, settings, counter, reach)
        .importWindow(request, rows, encoders, leaseHeld);
  }

  @Override
  public CorrectionResult appendCorrections(List<StoredReading> readings, Instant now) {
    return corrections().append(readings, now);
  }

  @Override
  public CorrectionResult appendCorrectionRows(List<Object[]> rows, Instant now) {
    return corrections().appendRows(rows, now);
  }

  @Override
  public CorrectionResult appendCorrections(CorrectionCheck checked, Instant now) {
    return corrections().append(checked, now);
  }

  @Override
  public CorrectionCheck checkCorrections(List<StoredReading> readings) {
    return corrections().check(readings);
  }

  private CorrectionAppender corrections() {
    return new CorrectionAppender(access, definition, settings, counter, footers);
  }

  @Override
  public List<SnapshotInfo> snapshots() {
    return SnapshotLister.list(access.load(), definition.name());
  }

  @Override
  public long tagSnapshot(String name) {
    return Tagger.tag(access.load(), definition.name(), name, null);
  }

  @Override
  public long tagSnapshot(String name, long snapshotId) {
    return Tagger.tag(access.load(), definition.name(), name, snapshotId);
  }

  @Override
  public long untagSnapshot(String name) {
    return Tagger.untag(access.load(), definition.name(), name);
  }

  @Override
  public List<SnapshotTag> tags() {
    return Tagger.list(access.load(), definition.name());
  }

  @Override
  public CloseableIterable<Object[]> read() {
    return rows(SnapshotSelector.current());
  }

  @Override
  public CloseableIterable<Object[]> readSnapshot(long snapshotId) {
    return rows(SnapshotSelector.snapshotId(snapshotId));
  }

  @Override
  public CloseableIterable<Object[]> readTag(String tag) {
    return rows(SnapshotSelector.tag(tag));
  }

  private CloseableIterable<Object[]> rows(SnapshotSelector selector) {
    Table table = access.load();
    Long snapshotId =
        SnapshotSelection.pick(selector, SnapshotSelection.Metadata.of(table), definition.name());
    if (snapshotId == null) {
      return CloseableIterable.empty();
    }
    RowConverter converter = new RowConverter(definition, table.schema());
    return CloseableIterable.transform(
        IcebergGenerics.read(table).useSnapshot(snapshotId).build(), converter::toRow);
  }

  @Override
  public boolean reassertWatermark(Instant now) {
    return Restamper.reassert(access, now, settings.policy(), counter);
  }

  @Override
  public ExpiryResult expireSnapshots(Instant now, TablePolicy policy, Set<Long> retain) {
    return Expirer.expire(access, now, policy, retain, settings.policy(), counter);
  }

  @Override
  public CompactionResult compact(
      Instant now, long leaseEpoch, int maxPartitions, BooleanSupplier leaseHeld) {
    if (maxPartitions < 1) {
      throw MeterStoreException.invalid("maxPartitions", maxPartitions, "at least 1");
    }
    return new Compactor(access, definition, settings, counter)
        .compact(now, leaseEpoch, maxPartitions, leaseHeld);
  }

  @Override
  public OrphanReport removeOrphanFiles(Instant now, Duration minAge, boolean dryRun) {
    return OrphanScanner.scan(access, now, minAge, dryRun);
  }

  @Override
  public void requireStorageAnswers() {
    access.read(
        table -> {
          if (table instanceof HasTableOperations h && h.operations().current() != null) {
            String metadata = h.operations().current().metadataFileLocation();
            StoreProbe.ask(table.io(), metadata, definition.name());
          }
          return null;
        });
  }

  @Override
  public DriftReport checkDrift() {
    Table table;
    try {
      table = access.load();
      return SchemaDrift.compare(definition.name(), definition.columns(), table.schema());
    } catch (RuntimeException e) {
      if (StorageFailures.find(e) != null) {
        // an unreachable catalog or object store is an outage, not drift
        throw StorageFailures.classify("load cold table " + definition.name(), e);
      }
      return SchemaDrift.unknown(definition.name(), e);
    }
  }
}
