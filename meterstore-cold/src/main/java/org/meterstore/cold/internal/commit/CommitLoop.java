package org.meterstore.cold.internal.commit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.internal.catalog.ManifestWork;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.internal.stamp.SnapshotChain;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one commit loop of the cold tier, in the spirit of Iceberg's {@code PendingUpdate}: each
 * attempt hands a {@link Committer} fresh metadata (the table, its current snapshot, W through the
 * {@link SnapshotChain}); the committer computes its files and its {@link CommitStamp} ({@code
 * apply}), or a final result; the loop commits them with Iceberg's own retry off and a check at the
 * catalog swap ({@link SwapCheck}), and retries with jittered back-off against fresh metadata when
 * the catalog refused. Archival windows, imports, corrections, compactions and re-stamps all plug
 * in here; nothing else in the code base calls {@code commit()} on a snapshot update (an
 * architecture rule keeps it so).
 *
 * <p>Outcomes of one catalog commit: it landed (found again by the call's commit id); it was
 * refused (its data files are deleted, Iceberg removes its own manifests, the next attempt starts
 * over); or its state is unknown (files kept, the table re-read for the commit id, and every later
 * attempt first looks for it, only among the snapshots after the one the call started from). Any
 * other failure happened before the catalog was asked: files deleted, {@code STORAGE} error.
 */
public final class CommitLoop {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLoop.class);

  private final TableAccess access;
  private final CommitPolicy policy;
  private final CommitCounter counter;

  /** A loop committing to one table. */
  public CommitLoop(TableAccess access, CommitPolicy policy, CommitCounter counter) {
    this.access = access;
    this.policy = policy;
    this.counter = counter;
  }

  /** One kind of commit, plugged into the loop. */
  public interface Committer<R> {
    /** What the call does, completing "Cannot … cold table x" ("archive window [a, b) of"). */
    String describe();

    /** One attempt against fresh metadata: a final result, or files and a stamp to commit. */
    Step<R> apply(Attempt attempt);

    /** Appended to the error when every attempt failed; empty by default. */
    default String afterExhausted(boolean unknownSeen) {
      return "";
    }
  }

  /**
   * The fresh metadata one attempt works from.
   *
   * @param table the table, loaded for this attempt, Iceberg's retry off
   * @param base its current snapshot, or null
   * @param watermark W at {@code base} (the epoch when null)
   * @param number the attempt's number, from 1
   * @param unknownSeen whether an earlier attempt's outcome was unknown
   * @param commitId the call's commit id, for the stamp
   */
  public record Attempt(
      Table table,
      Snapshot base,
      Instant watermark,
      int number,
      boolean unknownSeen,
      String commitId) {}

  /** What an attempt decided. */
  public sealed interface Step<R> permits Done, Commit {}

  /** A final result; nothing is committed. */
  public record Done<R>(R result) implements Step<R> {}

  /**
   * A commit to make.
   *
   * @param files the data files the update writes (deleted when the catalog refuses)
   * @param stamp what the snapshot summary records
   * @param update builds the snapshot update (files added, removed, validation) on the table it is
   *     given, which enforces {@code check} at the swap
   * @param check what must still hold at the catalog swap, else the commit is refused
   * @param leaseHeld asked after the files are written and before the catalog is; null for a commit
   *     under no lease
   * @param leaseLost the result when {@code leaseHeld} says no (files deleted first)
   * @param landed the result once this commit is found in {@code snapshot}
   */
  public record Commit<R>(
      List<DataFile> files,
      CommitStamp stamp,
      Function<Table, SnapshotUpdate<?>> update,
      SwapCheck check,
      BooleanSupplier leaseHeld,
      Supplier<R> leaseLost,
      Landed<R> landed)
      implements Step<R> {
    /** Checks what every commit needs. */
    public Commit {
      files = List.copyOf(files);
      Objects.requireNonNull(stamp, "stamp");
      Objects.requireNonNull(update, "update");
      Objects.requireNonNull(check, "check");
      Objects.requireNonNull(landed, "landed");
      if (leaseHeld != null) {
        Objects.requireNonNull(leaseLost, "leaseLost");
      }
    }
  }

  /** The result of a commit found in {@code snapshot}. */
  @FunctionalInterface
  public interface Landed<R> {
    /**
     * The result.
     *
     * @param attempts the attempts made (0 when an earlier attempt's commit of unknown outcome was
     *     found before the next one wrote anything)
     * @param unknownSeen whether any attempt's outcome was unknown
     */
    R result(Snapshot snapshot, int attempts, boolean unknownSeen);
  }

  /** What must still hold when the catalog swaps in the new metadata. */
  @FunctionalInterface
  public interface SwapCheck {
    /** Why the swap onto {@code current} must be refused, or null to let it happen. */
    String refusal(TableMetadata current, SnapshotChain chain);

    /**
     * Refused unless the current snapshot is still {@code base}: for a commit whose stamp or
     * content was derived from {@code base} (its W, its duplicate check, its rewrite plan).
     * Iceberg's {@code SnapshotProducer} refreshes its base in {@code apply()}, so without this an
     * update derived from {@code base} would be silently re-applied onto any commit that landed
     * since the attempt loaded the table.
     */
    static SwapCheck unchanged(Snapshot base) {
      Long planned = base == null ? null : base.snapshotId();
      return (current, chain) -> {
        Snapshot now = current.currentSnapshot();
        Long id = now == null ? null : now.snapshotId();
        return Objects.equals(id, planned)
            ? null
            : "the table moved past the planned snapshot " + planned + " (now " + id + ")";
      };
    }

    /**
     * Refused when W at the swap is past {@code from}: another archival commit of the window landed
     * after the attempt read W, and appending this one too would archive the window twice.
     */
    static SwapCheck watermarkAtMost(Instant from, String tableName) {
      return (current, chain) -> {
        Instant w = WatermarkReader.walk(chain, current.currentSnapshot(), tableName).watermark();
        return w.isAfter(from) ? "W moved to " + w + ", past the window start " + from : null;
      };
    }
  }

  /**
   * Runs {@code committer} until its commit lands, it returns a final result, or the policy's
   * attempts are spent ({@code STORAGE}, retryable).
   */
  public <R> R run(Committer<R> committer) {
    String name = access.tableName();
    String commitId = UUID.randomUUID().toString();
    Commit<R> unknown = null;
    Long since = null;
    String lastFailure = "";
    int max = policy.maxAttempts();
    for (int attempt = 1; attempt <= max; attempt++) {
      if (attempt > 1) {
        pause(attempt);
      }
      Table table = CommitSupport.withoutLibraryRetry(access, access.load());
      SnapshotChain chain = SnapshotChain.of(table, name);
      Snapshot base = table.currentSnapshot();
      if (attempt == 1) {
        since = base == null ? null : base.snapshotId();
      }
      if (unknown != null) {
        Snapshot late = chain.findCommit(base, commitId, since);
        if (late != null) {
          return landed(unknown, late, attempt - 1, true);
        }
      }
      Instant w = WatermarkReader.walk(chain, base, name).watermark();
      Step<R> step =
          committer.apply(new Attempt(table, base, w, attempt, unknown != null, commitId));
      if (step instanceof Done<R> done) {
        return done.result();
      }
      Commit<R> commit = (Commit<R>) step;
      if (!commit.stamp().commitId().equals(commitId)) {
        throw new IllegalStateException("a stamp must carry the call's commit id");
      }
      if (commit.leaseHeld() != null && !commit.leaseHeld().getAsBoolean()) {
        SortedChunkWriter.deleteQuietly(table.io(), commit.files());
        LOG.info("Cold table {}: lease lost before committing ({})", name, committer.describe());
        return commit.leaseLost().get();
      }
      String failure;
      try {
        SnapshotUpdate<?> update = commit.update().apply(checked(table, commit.check()));
        ManifestWork.commit(update, table);
        commit.stamp().applyTo(update);
        update.commit();
        counter.record(name, "committed");
        Snapshot landed = find(commitId, since);
        if (landed != null) {
          return landed(commit, landed, attempt, unknown != null);
        }
        unknown = commit;
        failure = "committed, but not found when re-read";
      } catch (CommitFailedException e) {
        counter.record(name, "refused");
        SortedChunkWriter.deleteQuietly(table.io(), commit.files());
        failure = "refused: " + e.getMessage();
      } catch (CommitStateUnknownException e) {
        counter.record(name, "unknown");
        unknown = commit;
        Snapshot learned = find(commitId, since);
        if (learned != null) {
          return landed(commit, learned, attempt, true);
        }
        failure = "unknown state, not landed when re-read: " + e.getMessage();
      } catch (MeterStoreException e) {
        SortedChunkWriter.deleteQuietly(table.io(), commit.files());
        throw e;
      } catch (RuntimeException e) {
        SortedChunkWriter.deleteQuietly(table.io(), commit.files());
        throw new MeterStoreException(
            ErrorKind.STORAGE, "Cannot commit to cold table " + name + ": " + e, e);
      }
      lastFailure = failure;
      LOG.info(
          "Cold table {}: commit attempt {} ({}) did not land ({}); {} files {}",
          name,
          attempt,
          committer.describe(),
          failure,
          commit.files().size(),
          unknown == commit ? "kept" : "deleted");
    }
    throw new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot "
            + committer.describe()
            + " cold table "
            + name
            + ": "
            + max
            + " commit attempts failed (last: "
            + lastFailure
            + ")"
            + committer.afterExhausted(unknown != null));
  }

  /**
   * {@code commit}'s result once it is found in {@code snapshot}; the table's after-commit action
   * (the resolved view's publish) runs first, so the view reads the new state when the call
   * returns.
   */
  private <R> R landed(Commit<R> commit, Snapshot snapshot, int attempts, boolean unknownSeen) {
    access.landed(commit.stamp().archivedAt());
    return commit.landed().result(snapshot, attempts, unknownSeen);
  }

  /** The call's commit in freshly loaded metadata, or null. */
  private Snapshot find(String commitId, Long since) {
    Table fresh = access.load();
    return SnapshotChain.of(fresh, access.tableName())
        .findCommit(fresh.currentSnapshot(), commitId, since);
  }

  /** {@code table} whose catalog swaps are refused when {@code check} says so. */
  private Table checked(Table table, SwapCheck check) {
    if (!(table instanceof HasTableOperations h)) {
      return table;
    }
    String name = access.tableName();
    return new BaseTable(
        new InterceptingTableOperations(
            h.operations(),
            (current, next, swap) -> {
              String refusal = check.refusal(current, SnapshotChain.of(current, name));
              if (refusal != null) {
                throw new CommitFailedException("%s", refusal);
              }
              swap.run();
            }),
        table.name());
  }

  /**
   * Sleeps before attempt {@code nextAttempt} (2 or more): uniformly between {@code minBackoff ×
   * 2^(nextAttempt-2)} (capped at the maximum) and {@code maxBackoff}.
   */
  private void pause(int nextAttempt) {
    long max = policy.maxBackoff().toMillis();
    long min = Math.min(max, policy.minBackoff().toMillis() << Math.min(20, nextAttempt - 2));
    long millis = min >= max ? max : ThreadLocalRandom.current().nextLong(min, max + 1);
    try {
      Thread.sleep(Duration.ofMillis(millis).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot commit to cold table " + access.tableName() + ": interrupted",
          e);
    }
  }
}
