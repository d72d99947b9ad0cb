package org.meterstore.cold.internal.commit;

import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.commit.Encoders;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.internal.write.SlicedWrite;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archival commit (DESIGN § 5), plugged into the {@link CommitLoop}. Each attempt requires W at
 * or before the window start (else another archiver won: {@code LOST_RACE}, nothing written),
 * checks drift, writes the window's files and hands them to the loop with an archive stamp; the
 * swap is refused if W moved past the window start in the meantime. The rows come from a hot
 * partition (archival) or from a classification against the attempt's fresh metadata (import,
 * {@link ImportCommitter}).
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

  /** Runs the protocol for one window; see {@code ColdTable.archive}. */
  public ArchiveResult archive(
      ArchiveRequest request, Iterable<Object[]> rows, BooleanSupplier leaseHeld) {
    return archive(request, attempt -> rows, leaseHeld);
  }

  /**
   * Runs the protocol for one window whose rows each attempt derives from its fresh metadata (after
   * the W and drift checks passed).
   */
  public ArchiveResult archive(
      ArchiveRequest request,
      Function<CommitLoop.Attempt, Iterable<Object[]>> rowsFor,
      BooleanSupplier leaseHeld) {
    return archive(request, rowsFor, leaseHeld, Encoders.CALLER);
  }

  /**
   * As {@link #archive(ArchiveRequest, Function, BooleanSupplier)}; when an attempt's rows come as
   * a list grouped by ascending {@code malo_id}, slices of it are encoded on {@code encoders}
   * beside the calling thread ({@link SlicedWrite}).
   */
  public ArchiveResult archive(
      ArchiveRequest request,
      Function<CommitLoop.Attempt, Iterable<Object[]>> rowsFor,
      BooleanSupplier leaseHeld,
      Encoders encoders) {
    return new CommitLoop(access, settings.policy(), counter)
        .run(new Window(request, rowsFor, leaseHeld, encoders));
  }

  /** One window's part in the loop. */
  private final class Window implements CommitLoop.Committer<ArchiveResult> {
    private final ArchiveRequest request;
    private final Function<CommitLoop.Attempt, Iterable<Object[]>> rowsFor;
    private final BooleanSupplier leaseHeld;
    private final Encoders encoders;

    Window(
        ArchiveRequest request,
        Function<CommitLoop.Attempt, Iterable<Object[]>> rowsFor,
        BooleanSupplier leaseHeld,
        Encoders encoders) {
      this.request = request;
      this.rowsFor = rowsFor;
      this.leaseHeld = leaseHeld;
      this.encoders = encoders;
    }

    @Override
    public String describe() {
      return "archive window " + request.range() + " of";
    }

    @Override
    public CommitLoop.Step<ArchiveResult> apply(CommitLoop.Attempt a) {
      Instant w = a.watermark();
      if (w.isAfter(request.from())) {
        counter.record(access.tableName(), "lost_race");
        LOG.info("Cold table {}: window {} lost to W {}", access.tableName(), request.range(), w);
        return new CommitLoop.Done<>(
            new ArchiveResult(
                ArchiveStatus.LOST_RACE, -1, w, ContentDigest.EMPTY, a.number(), a.unknownSeen()));
      }
      CommitSupport.requireNoDrift(definition, a.table());
      SortedChunkWriter.Written written = write(a.table(), rowsFor.apply(a));
      ContentDigest digest = written.digest();
      CommitStamp stamp =
          CommitStamp.archive(
              request.from(),
              request.to(),
              request.now(),
              definition.policy().archivalStep(),
              request.leaseEpoch(),
              digest,
              a.commitId());
      return new CommitLoop.Commit<>(
          written.files(),
          stamp,
          table -> {
            AppendFiles append = table.newAppend();
            written.files().forEach(append::appendFile);
            return append;
          },
          CommitLoop.SwapCheck.watermarkAtMost(request.from(), access.tableName()),
          leaseHeld,
          () ->
              new ArchiveResult(
                  ArchiveStatus.LEASE_LOST, -1, w, digest, a.number(), a.unknownSeen()),
          (snapshot, attempts, unknownSeen) -> committed(snapshot, digest, attempts, unknownSeen));
    }

    private SortedChunkWriter.Written write(Table table, Iterable<Object[]> rows) {
      List<String> names = definition.columns().stream().map(ColumnSpec::name).toList();
      int fromIndex = names.indexOf(StandardColumn.FROM.columnName());
      Supplier<SortedChunkWriter> writers =
          () ->
              new SortedChunkWriter(
                  table, definition, settings.chunkRows(), settings.targetFileSizeBytes());
      Consumer<Object[]> check =
          row -> {
            Instant from = (Instant) row[fromIndex];
            if (from == null || from.isBefore(request.from()) || !from.isBefore(request.to())) {
              throw MeterStoreException.invalid(
                  "from",
                  from,
                  "outside the archival window " + request.range() + " of " + definition.name());
            }
          };
      if (rows instanceof List<Object[]> list && encoders.threads() > 0) {
        int malo = names.indexOf(StandardColumn.MALO_ID.columnName());
        return SlicedWrite.write(writers, list, malo, check, encoders, table.io());
      }
      return writers.get().write(rows.iterator(), check);
    }

    private ArchiveResult committed(
        Snapshot snapshot, ContentDigest digest, int attempts, boolean unknownSeen) {
      LOG.info(
          "Cold table {}: archived {} ({} rows) in snapshot {}, W now {}",
          access.tableName(),
          request.range(),
          digest.rowCount(),
          snapshot.snapshotId(),
          request.to());
      return new ArchiveResult(
          ArchiveStatus.COMMITTED,
          snapshot.snapshotId(),
          request.to(),
          digest,
          Math.max(1, attempts),
          unknownSeen);
    }
  }
}
