package org.meterstore.cold.internal.snapshot;

import java.time.Instant;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.commit.CommitCounter;
import org.meterstore.cold.internal.commit.CommitLoop;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-stamps W onto the current snapshot: an append of no files whose summary carries the W the
 * history already says, so that the current snapshot needs no parent walk and expiring its
 * ancestors cannot strand the watermark. It can never move W: each attempt of the {@link
 * CommitLoop} re-reads W from the refreshed table, and the swap is refused if anything landed
 * since, rather than re-applying the old W onto a newer base.
 */
public final class Restamper {
  private static final Logger LOG = LoggerFactory.getLogger(Restamper.class);

  private Restamper() {}

  /** Re-stamps when needed; returns whether a commit was made. */
  public static boolean reassert(
      TableAccess access, Instant now, CommitPolicy policy, CommitCounter counter) {
    return new CommitLoop(access, policy, counter)
        .run(
            new CommitLoop.Committer<Boolean>() {
              @Override
              public String describe() {
                return "re-stamp the watermark of";
              }

              @Override
              public CommitLoop.Step<Boolean> apply(CommitLoop.Attempt a) {
                Snapshot current = a.base();
                if (current == null
                    || CommitStamp.ownWatermark(current, access.tableName()) != null) {
                  return new CommitLoop.Done<>(false);
                }
                // the stamp carries the W read for this attempt: refused if anything landed since
                return new CommitLoop.Commit<>(
                    List.of(),
                    CommitStamp.restamp(a.watermark(), now, a.commitId()),
                    Table::newFastAppend,
                    CommitLoop.SwapCheck.unchanged(current),
                    null,
                    null,
                    (snapshot, attempts, unknownSeen) -> {
                      LOG.info(
                          "Cold table {}: re-stamped W {} onto the current snapshot",
                          access.tableName(),
                          a.watermark());
                      return true;
                    });
              }
            });
  }
}
