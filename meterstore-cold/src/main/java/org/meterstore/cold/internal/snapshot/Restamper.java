package org.meterstore.cold.internal.snapshot;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.commit.CommitAttempt;
import org.meterstore.cold.internal.commit.CommitCounter;
import org.meterstore.cold.internal.commit.CommitSupport;
import org.meterstore.cold.internal.watermark.WatermarkReader;
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
  public static boolean reassert(
      TableAccess access, Instant now, CommitPolicy policy, CommitCounter counter) {
    String commitId = UUID.randomUUID().toString();
    for (int attempt = 1; attempt <= policy.maxAttempts(); attempt++) {
      if (attempt > 1) {
        CommitSupport.pause(policy, attempt, access.tableName());
      }
      Boolean done = attempt(access, now, commitId, counter);
      if (done != null) {
        return done;
      }
      LOG.info("Cold table {}: re-stamp attempt {} did not land", access.tableName(), attempt);
    }
    throw new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot re-stamp the watermark of cold table "
            + access.tableName()
            + ": "
            + policy.maxAttempts()
            + " commit attempts failed");
  }

  /** One attempt: whether a stamp was (or had been) committed, or null to try again. */
  private static Boolean attempt(
      TableAccess access, Instant now, String commitId, CommitCounter counter) {
    Table table = CommitSupport.withoutLibraryRetry(access, access.load());
    if (CommitSupport.findLanded(table, commitId) != null) {
      return true;
    }
    Snapshot current = table.currentSnapshot();
    if (current == null || WatermarkReader.own(current, access.tableName()) != null) {
      return false;
    }
    Instant w = WatermarkReader.read(table, access.tableName());
    // the stamp carries the W read here: refused (and tried again) if anything landed since
    AppendFiles stamp =
        CommitSupport.refusingIfMoved(table, current.snapshotId())
            .newFastAppend()
            .set(SummaryKeys.WATERMARK, w.toString())
            .set(SummaryKeys.ARCHIVED_AT, now.toString())
            .set(SummaryKeys.COMMIT_ID, commitId)
            .set(SummaryKeys.OPERATION, "restamp");
    CommitAttempt.Result result =
        CommitAttempt.commit(access, table, stamp, List.of(), commitId, counter);
    if (result.landed() == null) {
      return null;
    }
    LOG.info("Cold table {}: re-stamped W {} onto the current snapshot", access.tableName(), w);
    return true;
  }
}
