package org.meterstore.cold.internal.snapshot;

import java.time.Instant;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.CommitPolicy;
import org.meterstore.cold.SummaryKeys;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.commit.CommitSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-stamps W onto the current snapshot: an append of no files whose summary carries the W the
 * history already says, so that the current snapshot needs no parent walk and expiring its
 * ancestors cannot strand the watermark. It can never move W: each attempt re-reads W from the
 * refreshed table and, with Iceberg's retry off, a concurrent commit makes the attempt fail rather
 * than re-apply the old W onto a newer base.
 */
public final class Restamper {
  private static final Logger LOG = LoggerFactory.getLogger(Restamper.class);

  private Restamper() {}

  /** Re-stamps when needed; returns whether a commit was made. */
  public static boolean reassert(TableAccess access, Instant now, CommitPolicy policy) {
    String commitId = UUID.randomUUID().toString();
    for (int attempt = 1; attempt <= policy.maxAttempts(); attempt++) {
      if (attempt > 1) {
        CommitSupport.pause(policy, attempt, access.tableName());
      }
      Table table = CommitSupport.withoutLibraryRetry(access, access.load());
      if (CommitSupport.findLanded(table, commitId) != null) {
        return true;
      }
      Snapshot current = table.currentSnapshot();
      if (current == null || WatermarkReader.own(current, access.tableName()) != null) {
        return false;
      }
      Instant w = WatermarkReader.read(table, access.tableName());
      AppendFiles stamp =
          table
              .newFastAppend()
              .set(SummaryKeys.WATERMARK, w.toString())
              .set(SummaryKeys.ARCHIVED_AT, now.toString())
              .set(SummaryKeys.COMMIT_ID, commitId)
              .set(SummaryKeys.OPERATION, "restamp");
      try {
        stamp.commit();
        LOG.info("Cold table {}: re-stamped W {} onto the current snapshot", access.tableName(), w);
        return true;
      } catch (CommitFailedException e) {
        LOG.info("Cold table {}: re-stamp attempt {} refused", access.tableName(), attempt);
      } catch (CommitStateUnknownException e) {
        if (CommitSupport.findLanded(access.load(), commitId) != null) {
          return true;
        }
      }
    }
    throw new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot re-stamp the watermark of cold table "
            + access.tableName()
            + ": "
            + policy.maxAttempts()
            + " commit attempts failed");
  }
}
