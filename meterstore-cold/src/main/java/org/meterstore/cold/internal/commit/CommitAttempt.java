package org.meterstore.cold.internal.commit;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.write.SortedChunkWriter;

/**
 * One catalog commit of a prepared snapshot update, and its three outcomes: it landed; it was
 * positively refused (the update's data files are deleted, Iceberg removes its own manifests); or
 * its state is unknown (files kept, the table re-read for the commit id to learn whether it
 * landed). Any other failure happened before the catalog was asked, so the files are deleted.
 */
public final class CommitAttempt {
  /**
   * What one attempt found out.
   *
   * @param landed the snapshot carrying the commit id, or null when it did not land
   * @param unknown whether the catalog left the outcome unknown
   * @param failure why it did not land, or null
   */
  public record Result(Snapshot landed, boolean unknown, String failure) {}

  private CommitAttempt() {}

  /** Commits {@code update}, which writes {@code files} and carries {@code commitId}. */
  public static Result commit(
      TableAccess access,
      Table table,
      SnapshotUpdate<?> update,
      List<DataFile> files,
      String commitId,
      CommitCounter counter) {
    try {
      update.commit();
      counter.record(access.tableName(), "committed");
      return new Result(CommitSupport.findLanded(access.load(), commitId), false, null);
    } catch (CommitFailedException e) {
      counter.record(access.tableName(), "refused");
      SortedChunkWriter.deleteQuietly(table.io(), files);
      return new Result(null, false, "refused: " + e.getMessage());
    } catch (CommitStateUnknownException e) {
      counter.record(access.tableName(), "unknown");
      Snapshot learned = CommitSupport.findLanded(access.load(), commitId);
      String failure =
          learned != null ? null : "unknown state, not landed when re-read: " + e.getMessage();
      return new Result(learned, true, failure);
    } catch (RuntimeException e) {
      SortedChunkWriter.deleteQuietly(table.io(), files);
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot commit to cold table " + access.tableName() + ": " + e, e);
    }
  }
}
