package org.meterstore.cold.internal.compact;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.CompactionResult;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.commit.CommitCounter;
import org.meterstore.cold.internal.commit.CommitLoop;
import org.meterstore.cold.internal.commit.CommitSupport;
import org.meterstore.cold.internal.commit.WriteSettings;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compaction protocol: each attempt re-reads the table, plans from its current snapshot ({@link
 * CompactionPlanner}), merges each group's files in sort order through MeterStore's own writer
 * ({@link SortedChunkWriter}: the table's sort order, bloom filters, encodings and target size),
 * reads the new files back and requires their digest (row count, value sum) to equal the digest of
 * the rows read, and hands one {@link RewriteFiles} validated from the planned snapshot to the
 * {@link CommitLoop} (which asks the caller's lease check). The stamp carries the W the planned
 * snapshot has; the commit is refused unless the catalog's current snapshot is still the planned
 * one when it is swapped, so W can neither move nor vanish, and a correction or archival commit
 * that lands in between makes the attempt start over. Old files stay referenced by older snapshots,
 * so pinned readers are unaffected until expiry removes those snapshots.
 *
 * <p>Why not Iceberg core's action machinery ({@code BinPackRewriteFilePlanner}, {@code
 * RewriteDataFilesCommitManager}, which 1.12 ships without Spark): the plan needs MeterStore's
 * rules (closed months only, the merge-elision guard), the files must come from MeterStore's
 * writer, and the commit must be refused rather than re-applied when the table moved, because its
 * summary carries W; the commit manager would re-apply it onto a newer base. What remains is
 * Iceberg's own {@code RewriteFiles} commit, which this uses.
 */
public final class Compactor {
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  /**
   * Rows per chunk handed to the writer: large, so that output files end at the target size rather
   * than after a chunk (merged input arrives grouped by MaLo, so memory stays a few thousand rows).
   */
  private static final int MERGE_CHUNK_ROWS = 1 << 29;

  private final TableAccess access;
  private final TableDefinition definition;
  private final WriteSettings settings;
  private final CommitCounter counter;

  /** A compactor for one table. */
  public Compactor(
      TableAccess access,
      TableDefinition definition,
      WriteSettings settings,
      CommitCounter counter) {
    this.access = access;
    this.definition = definition;
    this.settings = settings;
    this.counter = counter;
  }

  /** What one prepared rewrite holds. */
  private record Prepared(
      List<CompactionPlanner.Group> groups,
      List<DataFile> rewritten,
      List<DataFile> written,
      ContentDigest digest) {}

  /** Runs the protocol; see {@code ColdTable.compact}. */
  public CompactionResult compact(
      Instant now, long leaseEpoch, int maxPartitions, BooleanSupplier leaseHeld) {
    return new CommitLoop(access, settings.policy(), counter)
        .run(new Compaction(now, leaseEpoch, maxPartitions, leaseHeld));
  }

  /** One compaction's part in the commit loop. */
  private final class Compaction implements CommitLoop.Committer<CompactionResult> {
    private final Instant now;
    private final long leaseEpoch;
    private final int maxPartitions;
    private final BooleanSupplier leaseHeld;

    Compaction(Instant now, long leaseEpoch, int maxPartitions, BooleanSupplier leaseHeld) {
      this.now = now;
      this.leaseEpoch = leaseEpoch;
      this.maxPartitions = maxPartitions;
      this.leaseHeld = leaseHeld;
    }

    @Override
    public String describe() {
      return "compact";
    }

    @Override
    public String afterExhausted(boolean unknownSeen) {
      return "; nothing was committed"
          + (unknownSeen ? " unless an attempt of unknown outcome lands late" : "")
          + ", and the next run plans afresh";
    }

    @Override
    public CommitLoop.Step<CompactionResult> apply(CommitLoop.Attempt a) {
      Table table = a.table();
      Snapshot base = a.base();
      Instant w = a.watermark();
      int done = a.number() - 1;
      if (base == null) {
        return new CommitLoop.Done<>(
            CompactionResult.nothing(CompactionResult.Status.NOTHING_TO_COMPACT, w, 0));
      }
      CommitSupport.requireNoDrift(definition, table);
      List<CompactionPlanner.Group> groups =
          CompactionPlanner.plan(
              FileStatistics.of(table, base),
              table.spec().specId(),
              w,
              settings.targetFileSizeBytes(),
              maxPartitions);
      if (groups.isEmpty()) {
        return new CommitLoop.Done<>(
            CompactionResult.nothing(CompactionResult.Status.NOTHING_TO_COMPACT, w, done));
      }
      Prepared prepared = prepare(table, base, groups);
      // The stamp carries the planned snapshot's W; the swap is refused unless that snapshot is
      // still current, so W can neither move nor vanish under the rewrite.
      return new CommitLoop.Commit<>(
          prepared.written(),
          CommitStamp.compact(
              w, now, leaseEpoch, prepared.digest(), prepared.rewritten().size(), a.commitId()),
          t -> {
            RewriteFiles rewrite = t.newRewrite().validateFromSnapshot(base.snapshotId());
            prepared.rewritten().forEach(rewrite::deleteFile);
            prepared.written().forEach(rewrite::addFile);
            return rewrite;
          },
          CommitLoop.SwapCheck.unchanged(base),
          leaseHeld,
          () -> CompactionResult.nothing(CompactionResult.Status.LEASE_LOST, w, a.number()),
          (snapshot, attempts, unknownSeen) -> committed(snapshot, w, prepared, attempts));
    }
  }

  /** Writes every group and re-checks the new files; deletes them on any failure. */
  private Prepared prepare(Table table, Snapshot base, List<CompactionPlanner.Group> groups) {
    Map<String, DataFile> byLocation = FileStatistics.dataFiles(table, base);
    List<DataFile> rewritten = new ArrayList<>();
    List<DataFile> written = new ArrayList<>();
    ContentDigest read = ContentDigest.EMPTY;
    try {
      for (CompactionPlanner.Group g : groups) {
        List<DataFile> inputs =
            g.files().stream().map(f -> byLocation.get(f.location())).collect(Collectors.toList());
        SortedChunkWriter.Written out;
        ContentDigest in;
        try (MergedRows rows = new MergedRows(table, definition, inputs)) {
          out =
              new SortedChunkWriter(
                      table, definition, MERGE_CHUNK_ROWS, settings.targetFileSizeBytes())
                  .write(rows, row -> {});
          in = rows.digest();
        }
        written.addAll(out.files());
        rewritten.addAll(inputs);
        long stated = inputs.stream().mapToLong(DataFile::recordCount).sum();
        require(
            in.rowCount() == stated, g, "read " + in.rowCount() + " rows, manifests say " + stated);
        require(
            out.digest().equals(in),
            g,
            "wrote " + out.digest().toSummaryValue() + " of " + in.toSummaryValue() + " read");
        read = add(read, in);
      }
      ContentDigest back = readBack(table, written);
      if (!back.equals(read)) {
        throw new MeterStoreException(
            ErrorKind.INVARIANT_VIOLATED,
            "Cannot compact cold table "
                + access.tableName()
                + ": the new files hold "
                + back.toSummaryValue()
                + " but the rewritten files held "
                + read.toSummaryValue()
                + "; nothing committed, new files deleted");
      }
      return new Prepared(groups, rewritten, written, read);
    } catch (RuntimeException | IOException e) {
      SortedChunkWriter.deleteQuietly(table.io(), written);
      if (e instanceof MeterStoreException m) {
        throw m;
      }
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot compact cold table " + access.tableName() + ": " + e, e);
    }
  }

  /** The digest of the rows of {@code files}, read back from storage. */
  private ContentDigest readBack(Table table, List<DataFile> files) throws IOException {
    RowConverter converter = new RowConverter(definition, table.schema());
    ContentDigest.Accumulator total = ContentDigest.accumulator(definition);
    for (DataFile f : files) {
      try (CloseableIterable<Record> records = MergedRows.read(table, f)) {
        records.forEach(r -> total.add(converter.toRow(r)));
      }
    }
    return total.digest();
  }

  private void require(boolean ok, CompactionPlanner.Group g, String what) {
    if (!ok) {
      throw new MeterStoreException(
          ErrorKind.INVARIANT_VIOLATED,
          "Cannot compact partition "
              + g.partition()
              + " of cold table "
              + access.tableName()
              + ": "
              + what
              + "; nothing committed");
    }
  }

  private static ContentDigest add(ContentDigest a, ContentDigest b) {
    return new ContentDigest(a.rowCount() + b.rowCount(), a.valueSum().add(b.valueSum()));
  }

  private CompactionResult committed(Snapshot snapshot, Instant w, Prepared p, int attempts) {
    long before = p.rewritten().stream().mapToLong(DataFile::fileSizeInBytes).sum();
    long after = p.written().stream().mapToLong(DataFile::fileSizeInBytes).sum();
    Set<String> partitions = new HashSet<>();
    p.groups().forEach(g -> partitions.add(g.partition()));
    LOG.info(
        "Cold table {}: compacted {} files ({} bytes) of {} partitions into {} files ({} bytes)"
            + " in snapshot {}, W {}",
        access.tableName(),
        p.rewritten().size(),
        before,
        partitions.size(),
        p.written().size(),
        after,
        snapshot.snapshotId(),
        w);
    return new CompactionResult(
        CompactionResult.Status.COMMITTED,
        snapshot.snapshotId(),
        w,
        partitions.size(),
        p.rewritten().size(),
        p.written().size(),
        before,
        after,
        p.digest(),
        attempts);
  }
}
