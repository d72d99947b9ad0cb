package org.meterstore.cold.internal.catalog;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.FileIO;

/**
 * Where Iceberg reads and writes the manifests of one scan plan, commit or expiry. Iceberg hands
 * that work to its shared worker pool and waits for the results by polling every 10 ms, so a small
 * table pays 10 to 30 ms per scan or commit for a millisecond of work: that was a fifth of the time
 * of a late correction or an archival commit on a table of a few dozen files. So the work runs on
 * the calling thread for a table on a local file system (a manifest read takes well under a
 * millisecond) and for a snapshot of at most {@value #INLINE_MAX_MANIFESTS} manifests; a larger
 * table on an object store keeps Iceberg's pool, where reading manifests side by side pays off
 * (each read waits for the store).
 */
public final class ManifestWork {
  /** The most manifests a snapshot may have for its manifest work to run on the caller's thread. */
  public static final int INLINE_MAX_MANIFESTS = 16;

  private ManifestWork() {}

  /** {@code scan} of {@code table} at {@code snapshot}, planned on the calling thread if cheap. */
  public static TableScan plan(TableScan scan, Table table, Snapshot snapshot) {
    return inline(table, snapshot) ? scan.planWith(new CallerRuns()) : scan;
  }

  /** Has {@code update} of {@code table} work on the calling thread when that is cheap. */
  public static void commit(SnapshotUpdate<?> update, Table table) {
    if (inline(table, table.currentSnapshot())) {
      update.scanManifestsWith(new CallerRuns());
      update.writeManifestsWith(new CallerRuns(), 1);
    }
  }

  /**
   * {@code expire} of {@code table}, planned on the calling thread when that is cheap, and on a
   * local file system also deleting there (one file at a time, as Iceberg's pool would).
   */
  public static ExpireSnapshots expire(ExpireSnapshots expire, Table table) {
    if (!inline(table, table.currentSnapshot())) {
      return expire;
    }
    expire.planWith(new CallerRuns());
    if (local(table)) {
      FileIO io = table.io();
      expire.deleteWith(io::deleteFile).executeDeleteWith(new CallerRuns());
    }
    return expire;
  }

  private static boolean inline(Table table, Snapshot snapshot) {
    return local(table)
        || snapshot == null
        || snapshot.allManifests(table.io()).size() <= INLINE_MAX_MANIFESTS;
  }

  private static boolean local(Table table) {
    return LocalFileIO.isLocal(table.location());
  }

  /** Runs each task on the thread that submits it: its future is done when submit returns. */
  private static final class CallerRuns extends AbstractExecutorService {
    private volatile boolean shutdown;

    @Override
    public void execute(Runnable command) {
      command.run();
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutdown = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
