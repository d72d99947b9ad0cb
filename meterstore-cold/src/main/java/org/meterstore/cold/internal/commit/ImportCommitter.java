package org.meterstore.cold.internal.commit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.Table;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.Encoders;
import org.meterstore.cold.commit.ImportWindowResult;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.layout.RowConverter;

/**
 * Imports one window of settled history at W (issue #18 item 4). Archival's rows come from a hot
 * partition whose primary key and exclusion constraints already enforced DESIGN § 3.3; imported
 * rows come from a file, so they are first classified with the late-correction rules ({@link
 * DuplicateCheck}: one operator, no restated value, no overlapping span, against the batch and the
 * stored spans just below W), repeated readings are dropped as {@code DUPLICATE}, the rest are
 * sorted in the hot tier's key order (so files cover disjoint MaLo ranges) and committed by the
 * archival protocol ({@link ArchivalCommitter}): W moves to the window end, with lease epoch and
 * digest. The classification is part of each attempt, against that attempt's fresh metadata, so a
 * correction that lands between two attempts is seen. Where the metadata shows that no stored row
 * can decide a reading (the usual window at W: nothing stored at or above W, no stored span
 * crossing it) the batch is classified against itself alone, by one sort instead of hash maps
 * ({@link BatchClassification#classifyAlone}), and its files are encoded on the {@code encoders} as
 * well as the calling thread.
 */
public final class ImportCommitter {
  private final TableAccess access;
  private final TableDefinition definition;
  private final WriteSettings settings;
  private final CommitCounter counter;
  private final StoredReach reach;

  /** A committer for one table; {@code reach} is the table's (kept with its handle). */
  public ImportCommitter(
      TableAccess access,
      TableDefinition definition,
      WriteSettings settings,
      CommitCounter counter,
      StoredReach reach) {
    this.access = access;
    this.definition = definition;
    this.settings = settings;
    this.counter = counter;
    this.reach = reach;
  }

  /** See {@code ColdTable.importWindow}. */
  public ImportWindowResult importWindow(
      ArchiveRequest request, List<Object[]> rows, Encoders encoders, BooleanSupplier leaseHeld) {
    // the outcomes of the latest classification: the one whose files a landed commit carries
    AtomicReference<List<WriteOutcome>> outcomes = new AtomicReference<>(List.of());
    ArchiveResult result =
        new ArchivalCommitter(access, definition, settings, counter)
            .archive(
                request,
                attempt -> {
                  Table table = attempt.table();
                  RowConverter converter = new RowConverter(definition, table.schema());
                  DuplicateCheck check = new DuplicateCheck(definition, converter, null);
                  BatchClassification batch = new BatchClassification(check);
                  BatchClassification.Classified alone =
                      batch.storedCanDecide(table, rows, reach) ? null : batch.classifyAlone(rows);
                  if (alone != null) {
                    outcomes.set(alone.outcomes());
                    return alone.toAppend();
                  }
                  List<WriteOutcome> classified = check.classify(table, rows);
                  outcomes.set(classified);
                  List<Object[]> toAppend = new ArrayList<>(rows.size());
                  for (int i = 0; i < rows.size(); i++) {
                    if (classified.get(i) != WriteOutcome.DUPLICATE) {
                      toAppend.add(rows.get(i));
                    }
                  }
                  toAppend.sort(keyOrder());
                  return toAppend;
                },
                leaseHeld,
                encoders);
    return new ImportWindowResult(result, result.committed() ? outcomes.get() : List.of());
  }

  /** {@code malo_id}, {@code obis_code}, {@code from}: the grouping archival reads rows in. */
  private Comparator<Object[]> keyOrder() {
    List<String> names = definition.columns().stream().map(c -> c.name()).toList();
    int malo = names.indexOf(StandardColumn.MALO_ID.columnName());
    int obis = names.indexOf(StandardColumn.OBIS_CODE.columnName());
    int from = names.indexOf(StandardColumn.FROM.columnName());
    Comparator<Object[]> byMalo = Comparator.comparing(r -> (String) r[malo]);
    return byMalo.thenComparing(r -> (String) r[obis]).thenComparing(r -> (Instant) r[from]);
  }
}
