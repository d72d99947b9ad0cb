package org.meterstore.cold.internal.commit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.CorrectionResult;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends late corrections below W (DESIGN § 4), plugged into the {@link CommitLoop}. Each attempt
 * requires every reading to be below the attempt's W, classifies the batch against what is stored
 * (redeliveries are skipped), writes the rest sorted in the archival layout and commits them with
 * that W carried forward, so the current snapshot keeps carrying W; the swap is refused if the
 * table moved since the attempt's snapshot.
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

  /** Appends {@code readings}; see {@code ColdTable.appendCorrections}. */
  public CorrectionResult append(List<StoredReading> readings, Instant now) {
    List<Object[]> rows = new ArrayList<>(readings.size());
    readings.forEach(r -> rows.add(StoredRow.of(definition, r)));
    if (rows.isEmpty()) {
      return new CorrectionResult(List.of(), 0, -1);
    }
    return new CommitLoop(access, settings.policy(), counter).run(new Corrections(rows, now));
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

  /** One batch's part in the commit loop. */
  private final class Corrections implements CommitLoop.Committer<CorrectionResult> {
    private final List<Object[]> rows;
    private final Instant now;

    Corrections(List<Object[]> rows, Instant now) {
      this.rows = rows;
      this.now = now;
    }

    @Override
    public String describe() {
      return "append " + rows.size() + " late corrections to";
    }

    @Override
    public CommitLoop.Step<CorrectionResult> apply(CommitLoop.Attempt a) {
      Table table = a.table();
      requireBelow(rows, a.watermark());
      CommitSupport.requireNoDrift(definition, table);
      RowConverter converter = new RowConverter(definition, table.schema());
      List<WriteOutcome> outcomes = new DuplicateCheck(definition, converter).classify(table, rows);
      List<Object[]> toAppend = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        if (outcomes.get(i) != WriteOutcome.DUPLICATE) {
          toAppend.add(rows.get(i));
        }
      }
      if (toAppend.isEmpty()) {
        return new CommitLoop.Done<>(new CorrectionResult(outcomes, 0, -1));
      }
      SortedChunkWriter.Written written =
          new SortedChunkWriter(
                  table, definition, settings.chunkRows(), settings.targetFileSizeBytes())
              .write(toAppend.iterator(), row -> {});
      // The stamp carries the W read for this attempt and the batch was classified against its
      // snapshot: the swap is refused if anything landed since, and the loop tries again.
      return new CommitLoop.Commit<>(
          written.files(),
          CommitStamp.correction(a.watermark(), now, written.digest(), a.commitId()),
          t -> {
            AppendFiles append = t.newAppend();
            written.files().forEach(append::appendFile);
            return append;
          },
          CommitLoop.SwapCheck.unchanged(a.base()),
          null,
          null,
          (snapshot, attempts, unknownSeen) -> result(outcomes, snapshot));
    }
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
