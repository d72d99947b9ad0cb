package org.meterstore.cold.internal.commit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.CorrectionResult;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends late corrections below W (DESIGN § 4). Each attempt re-reads the table, requires every
 * reading to be below the current W, classifies the batch against what is stored (redeliveries are
 * skipped), writes the rest sorted in the archival layout and commits them with the current W
 * carried forward, so the current snapshot keeps carrying W and no parent walk is needed. Refused
 * and unknown outcomes are handled as for archival commits.
 */
public final class CorrectionAppender {
  private static final Logger LOG = LoggerFactory.getLogger(CorrectionAppender.class);

  private final TableAccess access;
  private final TableDefinition definition;
  private final WriteSettings settings;
  private final CommitCounter counter;

  /** An appender for one table. */
  public CorrectionAppender(
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
    List<WriteOutcome> outcomes = List.of();
    boolean unknownSeen;
    String lastFailure = "";
  }

  /** Appends {@code readings}; see {@code ColdTable.appendCorrections}. */
  public CorrectionResult append(List<StoredReading> readings, Instant now) {
    List<Object[]> rows = new ArrayList<>(readings.size());
    readings.forEach(r -> rows.add(StoredRow.of(definition, r)));
    if (rows.isEmpty()) {
      return new CorrectionResult(List.of(), 0, -1);
    }
    Progress progress = new Progress();
    for (int attempt = 1; attempt <= settings.policy().maxAttempts(); attempt++) {
      if (attempt > 1) {
        CommitSupport.pause(settings.policy(), attempt, access.tableName());
      }
      CorrectionResult result = attempt(rows, now, progress);
      if (result != null) {
        return result;
      }
    }
    throw new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot append "
            + rows.size()
            + " late corrections to cold table "
            + access.tableName()
            + ": every commit attempt failed (last: "
            + progress.lastFailure
            + ")");
  }

  /**
   * Classifies {@code readings} against the current snapshot as {@link #append} would, writing
   * nothing; see {@code ColdTable.checkCorrections}.
   */
  public List<WriteOutcome> check(List<StoredReading> readings) {
    List<Object[]> rows = new ArrayList<>(readings.size());
    readings.forEach(r -> rows.add(StoredRow.of(definition, r)));
    if (rows.isEmpty()) {
      return List.of();
    }
    Table table = access.load();
    requireBelow(rows, WatermarkReader.read(table, access.tableName()));
    CommitSupport.requireNoDrift(definition, table);
    return new DuplicateCheck(definition, new RowConverter(definition, table.schema()))
        .classify(table, rows);
  }

  /** One attempt: a final result, or null to try again. */
  private CorrectionResult attempt(List<Object[]> rows, Instant now, Progress progress) {
    Table table = CommitSupport.withoutLibraryRetry(access, access.load());
    Snapshot landed =
        progress.unknownSeen ? CommitSupport.findLanded(table, progress.commitId) : null;
    if (landed != null) {
      return result(progress.outcomes, landed);
    }
    Instant w = WatermarkReader.read(table, access.tableName());
    requireBelow(rows, w);
    CommitSupport.requireNoDrift(definition, table);
    RowConverter converter = new RowConverter(definition, table.schema());
    progress.outcomes = new DuplicateCheck(definition, converter).classify(table, rows);
    List<Object[]> toAppend = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (progress.outcomes.get(i) != WriteOutcome.DUPLICATE) {
        toAppend.add(rows.get(i));
      }
    }
    if (toAppend.isEmpty()) {
      return new CorrectionResult(progress.outcomes, 0, -1);
    }
    SortedChunkWriter.Written written =
        new SortedChunkWriter(
                table, definition, settings.chunkRows(), settings.targetFileSizeBytes())
            .write(toAppend.iterator(), row -> {});
    // The snapshot carries the W read above: were an archival commit to land before this one,
    // Iceberg would build on it with that older W, moving W back. Refused instead, and tried again.
    Snapshot planned = table.currentSnapshot();
    AppendFiles append =
        (planned == null ? table : CommitSupport.refusingIfMoved(table, planned.snapshotId()))
            .newAppend();
    written.files().forEach(append::appendFile);
    append.set(SummaryKeys.WATERMARK, w.toString());
    append.set(SummaryKeys.ROW_COUNT, Long.toString(written.digest().rowCount()));
    append.set(SummaryKeys.ARCHIVED_AT, now.toString());
    append.set(SummaryKeys.DIGEST, written.digest().toSummaryValue());
    append.set(SummaryKeys.COMMIT_ID, progress.commitId);
    append.set(SummaryKeys.OPERATION, "correction");
    CommitAttempt.Result result =
        CommitAttempt.commit(access, table, append, written.files(), progress.commitId, counter);
    progress.unknownSeen |= result.unknown();
    if (result.landed() != null) {
      return result(progress.outcomes, result.landed());
    }
    progress.lastFailure = result.failure();
    return null;
  }

  private void requireBelow(List<Object[]> rows, Instant w) {
    int from =
        definition.columns().stream()
            .map(ColumnSpec::name)
            .toList()
            .indexOf(StandardColumn.FROM.columnName());
    for (Object[] row : rows) {
      Instant f = (Instant) row[from];
      if (!f.isBefore(w)) {
        throw MeterStoreException.invalid(
            "from", f, "a late correction of " + definition.name() + " lies below W " + w);
      }
    }
  }

  private CorrectionResult result(List<WriteOutcome> outcomes, Snapshot snapshot) {
    int appended = (int) outcomes.stream().filter(o -> o != WriteOutcome.DUPLICATE).count();
    LOG.info(
        "Cold table {}: appended {} late corrections in snapshot {}",
        access.tableName(),
        appended,
        snapshot.snapshotId());
    return new CorrectionResult(outcomes, appended, snapshot.snapshotId());
  }
}
