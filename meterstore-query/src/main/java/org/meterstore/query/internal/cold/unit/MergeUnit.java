package org.meterstore.query.internal.cold.unit;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.query.internal.cold.batch.BatchSink;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.query.internal.cold.filter.BatchFilter;
import org.meterstore.query.internal.cold.merge.MergeCursor;
import org.meterstore.query.internal.cold.merge.RowBuffer;
import org.meterstore.query.internal.cold.merge.RunResolver;

/**
 * The files of one month that need resolution, read columnar and merged by {@code (malo_id, from)}:
 * each file is sorted so, and every version of a merge key shares {@code malo_id} and {@code from}
 * (and so its month), so all versions of a key meet in one run of the merge even when a correction
 * put them in different files. Memory holds a batch per file plus one output batch, not the month.
 */
final class MergeUnit implements ScanUnit {
  private final List<FileScanTask> tasks;

  MergeUnit(List<FileScanTask> tasks) {
    this.tasks = List.copyOf(tasks);
  }

  @Override
  public String path() {
    return "columnar";
  }

  @Override
  public String resolution() {
    return "resolved";
  }

  @Override
  public long weight() {
    return tasks.stream().mapToLong(FileScanTask::length).sum();
  }

  /** The rows a unit's merge buffer holds before it first grows. */
  static final int INITIAL_ROWS = 256;

  @Override
  public UnitRun open(UnitContext context) {
    ScanColumns columns = context.columns();
    // starts small and doubles: one location's run of a few thousand rows allocates what it uses,
    // where two batches' worth of every column cost a point read as much as its decoding
    RowBuffer out = new RowBuffer(columns, INITIAL_ROWS);
    List<MergeCursor> cursors = new ArrayList<>();
    try {
      for (FileScanTask t : tasks) {
        cursors.add(
            new MergeCursor(
                context.snapshot().openBatches(t, columns.nameList(), context.batchRows()),
                context.before(),
                columns,
                out,
                t.file().location()));
      }
    } catch (RuntimeException e) {
      cursors.forEach(MergeCursor::close);
      throw e;
    }
    return new Run(cursors, out, context);
  }

  private static final class Run implements UnitRun {
    private final List<MergeCursor> live;
    private final List<MergeCursor> all;
    private final RowBuffer out;
    private final BatchFilter after;
    private final RunResolver resolver;
    private final int batchRows;
    private boolean[] dropped;
    private int[] sel;
    private int runStart;
    private int runMalo = -1;
    private long runFrom;
    private boolean started;
    private MergeCursor runnerUp;

    Run(List<MergeCursor> cursors, RowBuffer out, UnitContext context) {
      this.all = cursors;
      this.live = new ArrayList<>(cursors);
      this.out = out;
      this.after = context.after();
      this.resolver = new RunResolver(context.columns());
      this.batchRows = context.batchRows();
      this.dropped = new boolean[INITIAL_ROWS];
      this.sel = new int[INITIAL_ROWS];
    }

    @Override
    public boolean step(BatchSink sink) {
      if (!started) {
        live.removeIf(c -> !c.load());
        started = true;
      }
      MergeCursor c = null;
      while (!live.isEmpty()) {
        // the cursor just copied stays the smallest while it does not pass the runner-up
        if (c == null || (runnerUp != null && compare(c, runnerUp) > 0)) {
          c = smallest();
        }
        if (c.maloId() != runMalo || c.from() != runFrom) {
          endRun();
          if (out.size() >= batchRows) {
            flush(sink);
            runStart = 0;
            runMalo = c.maloId();
            runFrom = c.from();
            return true;
          }
          runStart = out.size();
          runMalo = c.maloId();
          runFrom = c.from();
        }
        if (out.size() >= dropped.length) {
          dropped = java.util.Arrays.copyOf(dropped, dropped.length * 2);
        }
        dropped[out.size()] = false;
        c.copyAndAdvance();
        if (!c.load()) {
          live.remove(c);
          c = null;
        }
      }
      endRun();
      flush(sink);
      return false;
    }

    /** The cursor at the smallest {@code (malo_id, from)}; sets {@link #runnerUp} to the next. */
    private MergeCursor smallest() {
      MergeCursor best = live.get(0);
      MergeCursor second = null;
      for (int k = 1; k < live.size(); k++) {
        MergeCursor c = live.get(k);
        if (compare(c, best) < 0) {
          second = best;
          best = c;
        } else if (second == null || compare(c, second) < 0) {
          second = c;
        }
      }
      runnerUp = second;
      return best;
    }

    private static int compare(MergeCursor a, MergeCursor b) {
      return a.maloId() == b.maloId()
          ? Long.compare(a.from(), b.from())
          : a.malo().compareTo(b.malo());
    }

    private void endRun() {
      if (out.size() - runStart > 1) {
        resolver.resolve(out, runStart, out.size(), dropped);
      }
    }

    private void flush(BatchSink sink) {
      int size = out.size();
      if (size == 0) {
        return;
      }
      if (sel.length < size) {
        sel = new int[size];
      }
      int n = 0;
      for (int r = 0; r < size; r++) {
        if (!dropped[r]) {
          sel[n++] = r;
        }
      }
      ColumnBatch batch = out.batch();
      n = after.apply(batch, sel, n);
      if (n > 0) {
        sink.accept(batch, sel, n);
      }
      out.clear();
    }

    @Override
    public long rowsRead() {
      return all.stream().mapToLong(MergeCursor::rowsRead).sum();
    }

    @Override
    public long rowsDecoded() {
      return all.stream().mapToLong(MergeCursor::rowsDecoded).sum();
    }

    @Override
    public void close() {
      all.forEach(MergeCursor::close);
    }
  }
}
