package org.meterstore.internal.imports;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.Encoders;
import org.meterstore.cold.commit.ImportWindowResult;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.imports.ImportCursor;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.maintenance.window.TierWatermark;
import org.meterstore.maintenance.window.WindowStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code MeterCatalog.importHistory}: settled history from a file into the cold tier.
 *
 * <p>Why this shape. A first pass reads and validates the whole source and learns its range, so
 * that a bad record, an unsettled range or hot rows in the range refuse the import before anything
 * is written. Then, holding the table's archival lease (so no maintenance cycle interleaves), the
 * source is read again in chunks and each chunk is routed by W: readings below W are late
 * corrections ({@link ColdTable#appendCorrections}, W unchanged); readings at or above W are one
 * window {@code [W, E)} committed like archival ({@link ColdTable#importWindow}), E the end of the
 * partition window of the chunk's latest {@code from}. Before that commit the hot floor is raised
 * to E, so from then on no partition can be created and no row stored below E, and the hot tier is
 * checked once more to hold no row in {@code [W, E)}: the invariant "no hot row below W" holds at
 * every instant, and W only moves forward. A crash between chunks leaves committed chunks; the
 * re-run finds their rows below W and reports them {@code DUPLICATE}. The writing pass reads the
 * source ahead on a second thread ({@link ReadAhead}) while chunks are committed; the thread ends
 * with the pass.
 */
public final class HistoryImport {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryImport.class);
  private static final String HOLDER = "meterstore import";

  /**
   * Readings below W committed as corrections at most at once: their classification's maps, not the
   * buffer, set an import's peak heap when a fleet's day is larger than the buffer.
   */
  static final int CORRECTION_ROWS = 100_000;

  /** Readings read ahead at most: a chunk, up to this many. */
  static final int AHEAD_ROWS = 100_000;

  private final HotStore hot;
  private final ColdTable cold;
  private final TableDefinition table;
  private final ImportSource source;
  private final Instant now;
  private final ImportOptions options;
  private final Tally tally = new Tally();
  private final TierWatermark watermark;
  private final int fromIndex;
  private final int valueIndex;
  // the writing pass's encoding threads while it runs
  private Encoders encoders = Encoders.CALLER;

  public HistoryImport(
      HotStore hot,
      ColdTable cold,
      TableDefinition table,
      ImportSource source,
      Instant now,
      ImportOptions options) {
    this.hot = hot;
    this.cold = cold;
    this.table = table;
    this.source = source;
    this.now = now;
    this.options = options;
    this.watermark = new TierWatermark(hot, cold, table);
    List<String> columns = table.columns().stream().map(ColumnSpec::name).toList();
    this.fromIndex = columns.indexOf(StandardColumn.FROM.columnName());
    this.valueIndex = columns.indexOf(StandardColumn.VALUE.columnName());
  }

  /** Runs the import; see {@code MeterCatalog.importHistory}. */
  public ImportResult run() {
    Range range = scan();
    Instant before = watermark.unguarded(TierWatermark.Unguarded.DISPLAY);
    if (range.rows == 0) {
      return result(range, before, before);
    }
    Instant settled = now.minus(table.policy().settlementLag());
    if (range.to.isAfter(settled)) {
      throw refused(
          range,
          "it is not settled: it ends after now - settlement_lag = "
              + settled
              + " (settlement_lag "
              + table.policy().settlementLag()
              + ")");
    }
    Optional<ArchivalLease> lease = hot.archival().tryLease(table, HOLDER, now);
    if (lease.isEmpty()) {
      throw new MeterStoreException(
          ErrorKind.LOCK_TIMEOUT,
          "Cannot import "
              + source.name()
              + " into table "
              + table.name()
              + ": another process holds the table's archival lease (a maintenance cycle or"
              + " another import); nothing was written, run it again");
    }
    try (ArchivalLease held = lease.get()) {
      Instant w = watermark.unguarded(TierWatermark.Unguarded.REPAIR);
      requireNoHotRows(range, range.from, range.to, w);
      writeChunks(range, held);
    }
    Instant after = watermark.unguarded(TierWatermark.Unguarded.DISPLAY);
    LOG.info(
        "Imported {} into {}: {} readings, {} stored, {} duplicate, {} commits, W {} -> {}",
        source.name(),
        table.name(),
        range.rows,
        tally.stored(),
        tally.duplicate,
        tally.commits,
        before,
        after);
    return result(range, before, after);
  }

  /** The first pass: validates every record and learns the range. */
  private Range scan() {
    Range range = new Range();
    try (ImportCursor cursor = source.open(table, now)) {
      for (StoredReading r = cursor.next(); r != null; r = cursor.next()) {
        range.add(r.reading().from());
      }
    }
    if (range.rows > 0) {
      range.from = hot.partitions().windowStart(table, range.min);
      range.to = upper(range.max);
    }
    return range;
  }

  private Instant upper(Instant from) {
    return hot.partitions().windowStart(table, from).plus(table.policy().archivalStep());
  }

  /**
   * Refuses an import when {@code [from, to)} holds hot rows, or a partition at or above W that is
   * detached (an archival run in flight, or interrupted: maintenance resumes it).
   */
  private void requireNoHotRows(Range range, Instant from, Instant to, Instant w) {
    long rows =
        hot.partitions().countRowsBelow(table, to) - hot.partitions().countRowsBelow(table, from);
    if (rows > 0) {
      throw refused(
          range,
          "the hot tier holds "
              + rows
              + " readings in ["
              + from
              + ", "
              + to
              + "); archive them first (meterstore maintain), or import only what PostgreSQL"
              + " does not hold");
    }
    for (PartitionInfo p : hot.partitions().list(table)) {
      boolean overlaps = p.lowerBound().isBefore(to) && p.upperBound().isAfter(from);
      if (overlaps && !p.isAttached() && p.upperBound().isAfter(w)) {
        throw refused(
            range,
            "partition "
                + p.name()
                + " is "
                + p.state()
                + " above W "
                + w
                + " (an archival run was interrupted); run meterstore maintain first");
      }
    }
  }

  private MeterStoreException refused(Range range, String reason) {
    return new MeterStoreException(
        ErrorKind.INVALID_INPUT,
        "Cannot import "
            + source.name()
            + " into table "
            + table.name()
            + ": its range ["
            + range.from
            + ", "
            + range.to
            + ") is refused: "
            + reason
            + (tally.commits == 0
                ? "; nothing was written"
                : "; the "
                    + tally.chunks
                    + " chunks before were committed and stay (a re-run reports them DUPLICATE)"));
  }

  /**
   * The second pass: chunks of about {@code chunkRows}. Once the buffer holds a chunk, the readings
   * before the last three partition windows (counted back from the latest {@code from} seen) are
   * committed and the rest is carried into the next chunk. A balancing day reaches over three UTC
   * windows (an electricity day starts at 23:00 or 22:00 UTC the day before, a gas day ends at
   * 05:00 or 04:00 UTC the day after), so a file sorted by {@code from}, or by day with meters in
   * any order within a day, then moves W once per chunk and sends nothing down the correction path.
   * When the buffer holds {@code chunksHeld} chunks (a fleet larger than a chunk per window), the
   * whole buffer is committed: memory holds at most that many chunks. The reader thread turns each
   * reading into its row ({@link StoredRow#converter}) before the buffer holds it, and the chunk's
   * files are encoded on the import's encoding threads ({@link EncoderThreads}) beside this one.
   */
  private void writeChunks(Range range, ArchivalLease lease) {
    int limit = options.chunkRows();
    int recheck = Math.max(1, limit / 8);
    long held = (long) limit * options.chunksHeld();
    ChunkBuffer buffer = new ChunkBuffer(fromIndex);
    long done = 0;
    int checkedAt = 0;
    try (ImportCursor cursor = source.open(table, now);
        ReadAhead ahead = readAhead(cursor, recheck);
        EncoderThreads threads = new EncoderThreads(options.encodingThreads(), table.name())) {
      encoders = threads.encoders();
      for (ReadAhead.Block block = ahead.next(); block != null; block = ahead.next()) {
        buffer.add(block);
        if (buffer.size() < limit || buffer.size() - checkedAt < recheck) {
          continue;
        }
        Instant keep =
            hot.partitions()
                .windowStart(table, buffer.latest())
                .minus(table.policy().archivalStep().multipliedBy(2));
        if (buffer.countBefore(keep) >= limit / 2) {
          done += commit(buffer.takeBefore(keep), range, lease);
        } else if (buffer.size() >= held) {
          done += commit(buffer.takeAll(), range, lease);
        } else {
          checkedAt = buffer.size();
          continue;
        }
        checkedAt = 0;
        options.progress().progressed(done, range.rows);
      }
      if (!buffer.isEmpty()) {
        done += commit(buffer.takeAll(), range, lease);
        options.progress().progressed(done, range.rows);
      }
    } finally {
      encoders = Encoders.CALLER;
    }
  }

  /**
   * The writing pass's reader: blocks of {@code recheck} rows (so the buffer is looked at as often
   * as before), and about a chunk read ahead, which the reader fills while a chunk is classified,
   * encoded and committed: the next chunk is then ready when the commit ends (with half a chunk,
   * the import waited for its reader some 0.4 s of a 6 s month).
   */
  private ReadAhead readAhead(ImportCursor cursor, int recheck) {
    int blockRows = Math.min(ReadAhead.BLOCK, recheck);
    int blocks = Math.max(4, Math.min(options.chunkRows(), AHEAD_ROWS) / blockRows);
    return new ReadAhead(
        cursor, StoredRow.converter(table), fromIndex, blockRows, blocks, table.name());
  }

  private Instant from(Object[] row) {
    return (Instant) row[fromIndex];
  }

  /** Commits one chunk: the part below W as corrections, the rest as the window [W, E). */
  private int commit(List<Object[]> chunk, Range range, ArchivalLease lease) {
    tally.chunks++;
    Instant w = watermark.unguarded(TierWatermark.Unguarded.REPAIR);
    List<Object[]> below = new ArrayList<>();
    List<Object[]> above = new ArrayList<>(chunk.size());
    Instant max = null;
    for (Object[] r : chunk) {
      Instant from = from(r);
      if (from.isBefore(w)) {
        below.add(r);
      } else {
        above.add(r);
        max = max == null || from.isAfter(max) ? from : max;
      }
    }
    // corrections are classified against what is stored with maps that grow with the batch (some
    // 300 bytes a reading): at most CORRECTION_ROWS, and at most a chunk, at a time
    int step = Math.min(options.chunkRows(), CORRECTION_ROWS);
    for (int start = 0; start < below.size(); start += step) {
      List<Object[]> part = below.subList(start, Math.min(below.size(), start + step));
      var result = cold.appendCorrectionRows(part, now);
      tally.add(result.outcomes());
      tally.commits += result.snapshotId() >= 0 ? 1 : 0;
    }
    if (!above.isEmpty()) {
      commitWindow(above, w, upper(max), range, lease);
    }
    return chunk.size();
  }

  private void commitWindow(
      List<Object[]> rows, Instant w, Instant end, Range range, ArchivalLease lease) {
    // Floor first: once it is raised, nothing can land in PostgreSQL below end, so the check
    // after it is final and W can move to end without stranding a row.
    hot.partitions().recordFloor(table, end);
    requireNoHotRows(range, w, end, w);
    WindowStep.Outcome outcome =
        new WindowStep(cold, table, watermark)
            .commit(
                new ArchiveRequest(w, end, now, lease.epoch()),
                new ChunkSource(rows),
                lease::isHeld);
    if (!outcome.committed()) {
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot import window ["
              + w
              + ", "
              + end
              + ") into table "
              + table.name()
              + ": "
              + outcome.archive().status()
              + " (W "
              + outcome.archive().watermark()
              + "); nothing of it was committed, run the import again");
    }
    tally.add(outcome.outcomes());
    tally.commits++;
  }

  /** A chunk of the import file as a window's source: its non-duplicate readings' digest. */
  private final class ChunkSource implements WindowStep.Source {
    private final List<Object[]> rows;

    ChunkSource(List<Object[]> rows) {
      this.rows = rows;
    }

    @Override
    public ImportWindowResult commit(
        ColdTable target, ArchiveRequest request, BooleanSupplier leaseHeld) {
      return target.importWindow(request, rows, encoders, leaseHeld);
    }

    @Override
    public ContentDigest expected(List<WriteOutcome> outcomes) {
      long count = 0;
      BigDecimal sum = BigDecimal.ZERO;
      for (int i = 0; i < rows.size(); i++) {
        if (outcomes.get(i) != WriteOutcome.DUPLICATE) {
          count++;
          sum = sum.add((BigDecimal) rows.get(i)[valueIndex]);
        }
      }
      return new ContentDigest(count, sum);
    }

    @Override
    public String describe() {
      return "the import chunk of " + source.name();
    }
  }

  private ImportResult result(Range range, Instant before, Instant after) {
    return new ImportResult(
        table.name(),
        range.rows,
        tally.inserted,
        tally.superseded,
        tally.shadowed,
        tally.duplicate,
        tally.chunks,
        tally.commits,
        range.from,
        range.to,
        before,
        after);
  }

  /** The source's extent, from the first pass. */
  private static final class Range {
    long rows;
    Instant min;
    Instant max;
    Instant from;
    Instant to;

    void add(Instant from) {
      rows++;
      min = min == null || from.isBefore(min) ? from : min;
      max = max == null || from.isAfter(max) ? from : max;
    }
  }

  /** Outcome counts across chunks. */
  private static final class Tally {
    long inserted;
    long superseded;
    long shadowed;
    long duplicate;
    int chunks;
    int commits;

    void add(List<WriteOutcome> outcomes) {
      for (WriteOutcome o : outcomes) {
        switch (o) {
          case INSERTED -> inserted++;
          case SUPERSEDED -> superseded++;
          case SHADOWED -> shadowed++;
          case DUPLICATE -> duplicate++;
        }
      }
    }

    long stored() {
      return inserted + superseded + shadowed;
    }
  }
}
