package org.meterstore.cold.internal.commit;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.commit.ContentDigest;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archival commit protocol (DESIGN § 5). Each attempt re-reads the table, first looks for this
 * call's commit (an earlier attempt may have landed after all), then requires W to be at or before
 * the window start (else another archiver won: {@code LOST_RACE}, nothing written), checks drift,
 * writes the window's files and commits them with a freshly derived summary in one append with
 * Iceberg's retry off. A refused commit's files are deleted before the next attempt; an unknown
 * outcome keeps them and is resolved by re-reading the table for the commit id.
 */
public final class ArchivalCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(ArchivalCommitter.class);

  private final TableAccess access;
  private final TableDefinition definition;
  private final WriteSettings settings;
  private final CommitCounter counter;

  /** A committer for one table. */
  public ArchivalCommitter(
      TableAccess access,
      TableDefinition definition,
      WriteSettings settings,
      CommitCounter counter) {
    this.access = access;
    this.definition = definition;
    this.settings = settings;
    this.counter = counter;
  }

  /** What one call learned across its attempts. */
  private static final class Progress {
    final String commitId = UUID.randomUUID().toString();
    ContentDigest digest = ContentDigest.EMPTY;
    boolean unknownSeen;
    String lastFailure = "";
  }

  /** Runs the protocol for one window; see {@code ColdTable.archive}. */
  public ArchiveResult archive(
      ArchiveRequest request, Iterable<Object[]> rows, BooleanSupplier leaseHeld) {
    Progress progress = new Progress();
    int max = settings.policy().maxAttempts();
    for (int attempt = 1; attempt <= max; attempt++) {
      if (attempt > 1) {
        CommitSupport.pause(settings.policy(), attempt, access.tableName());
      }
      ArchiveResult result = attempt(request, rows, leaseHeld, progress, attempt);
      if (result != null) {
        return result;
      }
    }
    throw new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot archive window "
            + request.range()
            + " of cold table "
            + access.tableName()
            + ": "
            + max
            + " commit attempts failed (last: "
            + progress.lastFailure
            + ")");
  }

  /** One attempt: a final result, or null to try again. */
  private ArchiveResult attempt(
      ArchiveRequest request,
      Iterable<Object[]> rows,
      BooleanSupplier leaseHeld,
      Progress progress,
      int attempt) {
    Table table = CommitSupport.withoutLibraryRetry(access, access.load());
    Snapshot landed =
        progress.unknownSeen ? CommitSupport.findLanded(table, progress.commitId) : null;
    if (landed != null) {
      return committed(landed, request, progress, attempt - 1);
    }
    Instant w = WatermarkReader.read(table, access.tableName());
    if (w.isAfter(request.from())) {
      counter.record(access.tableName(), "lost_race");
      LOG.info("Cold table {}: window {} lost to W {}", access.tableName(), request.range(), w);
      return new ArchiveResult(
          ArchiveStatus.LOST_RACE, -1, w, progress.digest, attempt, progress.unknownSeen);
    }
    CommitSupport.requireNoDrift(definition, table);
    return writeAndCommit(table, w, request, rows, leaseHeld, progress, attempt);
  }

  /** Writes the window and commits it: a final result, or null to try again. */
  private ArchiveResult writeAndCommit(
      Table table,
      Instant w,
      ArchiveRequest request,
      Iterable<Object[]> rows,
      BooleanSupplier leaseHeld,
      Progress progress,
      int attempt) {
    SortedChunkWriter.Written written = write(table, request, rows);
    progress.digest = written.digest();
    if (!leaseHeld.getAsBoolean()) {
      SortedChunkWriter.deleteQuietly(table.io(), written.files());
      LOG.info(
          "Cold table {}: lease lost before committing {}", access.tableName(), request.range());
      return new ArchiveResult(
          ArchiveStatus.LEASE_LOST, -1, w, progress.digest, attempt, progress.unknownSeen);
    }
    AppendFiles append = table.newAppend();
    written.files().forEach(append::appendFile);
    summary(request, progress).forEach(append::set);
    CommitAttempt.Result result =
        CommitAttempt.commit(access, table, append, written.files(), progress.commitId, counter);
    progress.unknownSeen |= result.unknown();
    if (result.landed() != null) {
      return committed(result.landed(), request, progress, attempt);
    }
    progress.lastFailure = result.failure();
    LOG.info(
        "Cold table {}: commit attempt {} did not land ({}); {} files {}",
        access.tableName(),
        attempt,
        result.failure(),
        written.files().size(),
        result.unknown() ? "kept" : "deleted");
    return null;
  }

  private SortedChunkWriter.Written write(
      Table table, ArchiveRequest request, Iterable<Object[]> rows) {
    int fromIndex =
        definition.columns().stream()
            .map(ColumnSpec::name)
            .toList()
            .indexOf(StandardColumn.FROM.columnName());
    SortedChunkWriter writer =
        new SortedChunkWriter(
            table, definition, settings.chunkRows(), settings.targetFileSizeBytes());
    return writer.write(
        rows.iterator(),
        row -> {
          Instant from = (Instant) row[fromIndex];
          if (from == null || from.isBefore(request.from()) || !from.isBefore(request.to())) {
            throw MeterStoreException.invalid(
                "from",
                from,
                "outside the archival window " + request.range() + " of " + definition.name());
          }
        });
  }

  private Map<String, String> summary(ArchiveRequest request, Progress progress) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(SummaryKeys.WATERMARK, request.to().toString());
    s.put(SummaryKeys.ARCHIVED_RANGE, request.range());
    s.put(SummaryKeys.ROW_COUNT, Long.toString(progress.digest.rowCount()));
    s.put(SummaryKeys.ARCHIVED_AT, request.now().toString());
    s.put(SummaryKeys.ARCHIVAL_STEP, definition.policy().archivalStep().toString());
    s.put(SummaryKeys.LEASE_EPOCH, Long.toString(request.leaseEpoch()));
    s.put(SummaryKeys.DIGEST, progress.digest.toSummaryValue());
    s.put(SummaryKeys.COMMIT_ID, progress.commitId);
    s.put(SummaryKeys.OPERATION, "archive");
    return s;
  }

  private ArchiveResult committed(
      Snapshot snapshot, ArchiveRequest request, Progress progress, int attempts) {
    LOG.info(
        "Cold table {}: archived {} ({} rows) in snapshot {}, W now {}",
        access.tableName(),
        request.range(),
        progress.digest.rowCount(),
        snapshot.snapshotId(),
        request.to());
    return new ArchiveResult(
        ArchiveStatus.COMMITTED,
        snapshot.snapshotId(),
        request.to(),
        progress.digest,
        Math.max(1, attempts),
        progress.unknownSeen);
  }
}
