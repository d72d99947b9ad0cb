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
import org.meterstore.cold.commit.CorrectionCheck;
import org.meterstore.cold.commit.CorrectionResult;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.meterstore.cold.scan.FooterCache;
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
  private final FooterCache footers;

  /** An appender for one table; {@code footers} is the store's footer cache, or null. */
  public CorrectionAppender(
      TableAccess access,
      TableDefinition definition,
      WriteSettings settings,
      CommitCounter counter,
      FooterCache footers) {
    this.footers = footers;
    this.access = access;
    this.definition = definition;
    this.settings = settings;
    this.counter = counter;
  }

  /** Appends {@code readings}; see {@code ColdTable.appendCorrections}. */
  public CorrectionResult append(List<StoredReading> readings, Instant now) {
    return append(readings, null, now);
  }

  /**
   * Appends the readings of {@code checked}, reusing its outcomes while its snapshot is current.
   */
  public CorrectionResult append(CorrectionCheck checked, Instant now) {
    return append(checked.readings(), checked, now);
  }

  /** Appends rows made by {@code StoredRow.of}; see {@code ColdTable.appendCorrectionRows}. */
  public CorrectionResult appendRows(List<Object[]> rows, Instant now) {
    return appendRows(rows, null, now);
  }

  private CorrectionResult append(
      List<StoredReading> readings, CorrectionCheck checked, Instant now) {
    List<Object[]> rows = new ArrayList<>(readings.size());
    readings.forEach(r -> rows.add(StoredRow.of(definition, r)));
    return appendRows(rows, checked, now);
  }

  private CorrectionResult appendRows(List<Object[]> rows, CorrectionCheck checked, Instant now) {
    if (rows.isEmpty()) {
      return new CorrectionResult(List.of(), 0, -1);
    }
    return new CommitLoop(access, settings.policy(), counter)
        .run(new Corrections(rows, checked, now));
  }

  /**
   * Classifies {@code readings} against the current snapshot as {@link #append} would, writing
   * nothing; see {@code ColdTable.checkCorrections}.
   */
  public CorrectionCheck check(List<StoredReading> readings) {
    List<Object[]> rows = new ArrayList<>(readings.size());
    readings.forEach(r -> rows.add(StoredRow.of(definition, r)));
    if (rows.isEmpty()) {
      return new CorrectionCheck(List.of(), List.of(), -1);
    }
    Table table = access.load();
    requireBelow(rows, WatermarkReader.read(table, access.tableName()));
    CommitSupport.requireNoDrift(definition, table);
    List<WriteOutcome> outcomes = classify(table, rows);
    return new CorrectionCheck(readings, outcomes, snapshotId(table.currentSnapshot()));
  }

  private List<WriteOutcome> classify(Table table, List<Object[]> rows) {
    return new DuplicateCheck(definition, new RowConverter(definition, table.schema()), footers)
        .classify(table, rows);
  }

  private static long snapshotId(Snapshot snapshot) {
    return snapshot == null ? -1 : snapshot.snapshotId();
  }

  /** One batch's part in the commit loop. */
  private final class Corrections implements CommitLoop.Committer<CorrectionResult> {
    private final List<Object[]> rows;
    private final CorrectionCheck checked;
    private final Instant now;

    /** {@code checked} is the batch's check, or null when there was none. */
    Corrections(List<Object[]> rows, CorrectionCheck checked, Instant now) {
      this.rows = rows;
      this.checked = checked;
      this.now = now;
    }

    /** The check's outcomes while the attempt's table is at its snapshot, else a new scan. */
    private List<WriteOutcome> outcomes(CommitLoop.Attempt a) {
      if (checked != null && checked.snapshotId() == snapshotId(a.base())) {
        return checked.outcomes();
      }
      return classify(a.table(), rows);
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
      List<WriteOutcome> outcomes = outcomes(a);
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
