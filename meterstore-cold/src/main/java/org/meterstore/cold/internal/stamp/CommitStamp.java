package org.meterstore.cold.internal.stamp;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.commit.SummaryKeys;

/**
 * What one MeterStore commit records in its snapshot summary (DESIGN § 5), written and read here
 * only: no other class reads a snapshot's summary or sets a summary entry on an update (an
 * architecture rule keeps it so). Every stamp carries the operation, W after the commit, the
 * caller's {@code now} and the call's commit id; the other fields belong to some operations only
 * and are null elsewhere. A compaction adds no row, so its stamp has a digest (of the rows it
 * rewrote) but no row count.
 *
 * @param operation what the commit was
 * @param watermark W after the commit, never null
 * @param archivedAt the committer's {@code now}, never null
 * @param commitId the call's random id, so a commit of unknown outcome can be found; never null
 * @param windowFrom the archived window's start (archive only)
 * @param windowTo the archived window's end (archive only)
 * @param archivalStep the table's archival step (archive only)
 * @param leaseEpoch the archival lease's epoch the committer held (archive, compact)
 * @param digest the content digest of the rows added (archive, correction, compact)
 * @param rewrittenFiles how many data files the commit replaced (compact only)
 */
public record CommitStamp(
    Operation operation,
    Instant watermark,
    Instant archivedAt,
    String commitId,
    Instant windowFrom,
    Instant windowTo,
    Duration archivalStep,
    Long leaseEpoch,
    ContentDigest digest,
    Integer rewrittenFiles) {

  /** The kinds of MeterStore commit, by the name {@link SummaryKeys#OPERATION} records. */
  public enum Operation {
    /** One archival window moved W up (also an imported window). */
    ARCHIVE("archive"),
    /** Late corrections below W; W carried forward. */
    CORRECTION("correction"),
    /** Small files rewritten into large ones; no row added or removed, W carried forward. */
    COMPACT("compact"),
    /** No files: W re-stamped onto the current snapshot. */
    RESTAMP("restamp");

    private final String summaryName;

    Operation(String summaryName) {
      this.summaryName = summaryName;
    }

    /** The name in the summary. */
    public String summaryName() {
      return summaryName;
    }

    /** The operation named {@code text}, or empty for anything else (a foreign commit). */
    public static Optional<Operation> named(String text) {
      for (Operation o : values()) {
        if (o.summaryName.equals(text)) {
          return Optional.of(o);
        }
      }
      return Optional.empty();
    }
  }

  /** Checks the fields every stamp carries. */
  public CommitStamp {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(watermark, "watermark");
    Objects.requireNonNull(archivedAt, "archivedAt");
    Objects.requireNonNull(commitId, "commitId");
  }

  /** An archival commit of {@code [from, to)}: W moves to {@code to}. */
  public static CommitStamp archive(
      Instant from,
      Instant to,
      Instant now,
      Duration archivalStep,
      long leaseEpoch,
      ContentDigest digest,
      String commitId) {
    return new CommitStamp(
        Operation.ARCHIVE,
        to,
        now,
        commitId,
        from,
        to,
        Objects.requireNonNull(archivalStep, "archivalStep"),
        leaseEpoch,
        Objects.requireNonNull(digest, "digest"),
        null);
  }

  /** A late-correction commit below {@code w}, which it carries forward. */
  public static CommitStamp correction(
      Instant w, Instant now, ContentDigest digest, String commitId) {
    return new CommitStamp(
        Operation.CORRECTION,
        w,
        now,
        commitId,
        null,
        null,
        null,
        null,
        Objects.requireNonNull(digest, "digest"),
        null);
  }

  /** A compaction commit that replaced {@code rewrittenFiles} files, carrying {@code w} forward. */
  public static CommitStamp compact(
      Instant w,
      Instant now,
      long leaseEpoch,
      ContentDigest digest,
      int rewrittenFiles,
      String commitId) {
    return new CommitStamp(
        Operation.COMPACT,
        w,
        now,
        commitId,
        null,
        null,
        null,
        leaseEpoch,
        Objects.requireNonNull(digest, "digest"),
        rewrittenFiles);
  }

  /** A re-stamp of {@code w} onto the current snapshot. */
  public static CommitStamp restamp(Instant w, Instant now, String commitId) {
    return new CommitStamp(Operation.RESTAMP, w, now, commitId, null, null, null, null, null, null);
  }

  /** The summary entries of this stamp, in a stable order. */
  public Map<String, String> toSummary() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(SummaryKeys.WATERMARK, watermark.toString());
    if (windowFrom != null) {
      s.put(SummaryKeys.ARCHIVED_RANGE, "[" + windowFrom + ", " + windowTo + ")");
    }
    if (digest != null && operation != Operation.COMPACT) {
      s.put(SummaryKeys.ROW_COUNT, Long.toString(digest.rowCount()));
    }
    s.put(SummaryKeys.ARCHIVED_AT, archivedAt.toString());
    if (archivalStep != null) {
      s.put(SummaryKeys.ARCHIVAL_STEP, archivalStep.toString());
    }
    if (leaseEpoch != null) {
      s.put(SummaryKeys.LEASE_EPOCH, Long.toString(leaseEpoch));
    }
    if (digest != null) {
      s.put(SummaryKeys.DIGEST, digest.toSummaryValue());
    }
    if (rewrittenFiles != null) {
      s.put(SummaryKeys.REWRITTEN_FILES, Integer.toString(rewrittenFiles));
    }
    s.put(SummaryKeys.COMMIT_ID, commitId);
    s.put(SummaryKeys.OPERATION, operation.summaryName());
    return s;
  }

  /** Sets every entry of this stamp on {@code update}. */
  public void applyTo(SnapshotUpdate<?> update) {
    for (Map.Entry<String, String> e : toSummary().entrySet()) {
      update.set(e.getKey(), e.getValue());
    }
  }

  // ---- reading ------------------------------------------------------------------------------

  /**
   * The W {@code snapshot} carries itself, or null (a foreign commit, which inherits W).
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when it carries an unreadable W: saying
   *     "none" would let it inherit an older W
   */
  public static Instant ownWatermark(Snapshot snapshot, String tableName) {
    String text = entry(snapshot, SummaryKeys.WATERMARK);
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new MeterStoreException(
          ErrorKind.INVARIANT_VIOLATED,
          "Cannot read the watermark of cold table "
              + tableName
              + ": snapshot "
              + snapshot.snapshotId()
              + " carries an unreadable "
              + SummaryKeys.WATERMARK
              + " '"
              + text
              + "'",
          e);
    }
  }

  /**
   * MeterStore's own time of a commit ({@link SummaryKeys#ARCHIVED_AT}), or null for a foreign one
   * (or one whose stamp a foreign tool garbled: it then inherits, like a foreign commit).
   */
  public static Instant archivedAt(Snapshot snapshot) {
    String text = entry(snapshot, SummaryKeys.ARCHIVED_AT);
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The operation name a snapshot's summary records, or null for a foreign commit. */
  public static String operationName(Snapshot snapshot) {
    return entry(snapshot, SummaryKeys.OPERATION);
  }

  /** Whether {@code snapshot} is the commit of the call with id {@code commitId}. */
  public static boolean isCommit(Snapshot snapshot, String commitId) {
    return commitId.equals(entry(snapshot, SummaryKeys.COMMIT_ID));
  }

  /**
   * The archival commit {@code snapshot} records, or empty for another kind of commit or a summary
   * that does not parse: that is not one of MeterStore's archival commits, so it covers nothing and
   * reclamation never drops a partition on its word.
   */
  public static Optional<ArchivalCommit> archivalCommit(Snapshot snapshot) {
    return archivalCommit(snapshot.snapshotId(), snapshot.sequenceNumber(), snapshot.summary());
  }

  /**
   * The archival commit a summary records (see {@link #archivalCommit(Snapshot)}).
   *
   * @param summary the snapshot summary, or null
   */
  public static Optional<ArchivalCommit> archivalCommit(
      long snapshotId, long sequenceNumber, Map<String, String> summary) {
    if (summary == null
        || !Operation.ARCHIVE.summaryName().equals(summary.get(SummaryKeys.OPERATION))) {
      return Optional.empty();
    }
    String range = summary.get(SummaryKeys.ARCHIVED_RANGE);
    String rows = summary.get(SummaryKeys.ROW_COUNT);
    String digest = summary.get(SummaryKeys.DIGEST);
    String at = summary.get(SummaryKeys.ARCHIVED_AT);
    String epoch = summary.get(SummaryKeys.LEASE_EPOCH);
    String w = summary.get(SummaryKeys.WATERMARK);
    if (range == null
        || rows == null
        || digest == null
        || at == null
        || epoch == null
        || w == null) {
      return Optional.empty();
    }
    try {
      Instant[] bounds = range(range);
      return Optional.of(
          new ArchivalCommit(
              snapshotId,
              sequenceNumber,
              bounds[0],
              bounds[1],
              Long.parseLong(rows),
              ContentDigest.parse(digest),
              Instant.parse(at),
              Long.parseLong(epoch),
              Instant.parse(w)));
    } catch (RuntimeException e) {
      // an unparsable summary is not one of ours: it covers nothing, so nothing is dropped for it
      return Optional.empty();
    }
  }

  /**
   * A count Iceberg itself records in the summary ({@code added-records}, {@code total-records}),
   * or -1 when absent or unreadable.
   */
  public static long count(Snapshot snapshot, String icebergKey) {
    String v = entry(snapshot, icebergKey);
    try {
      return v == null ? -1 : Long.parseLong(v);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String entry(Snapshot snapshot, String key) {
    Map<String, String> summary = snapshot.summary();
    return summary == null ? null : summary.get(key);
  }

  /** {@code [from, to)} as {@link #toSummary()} writes it. */
  private static Instant[] range(String text) {
    if (!text.startsWith("[") || !text.endsWith(")")) {
      throw new IllegalArgumentException("Invalid archived range: " + text + " ([from, to))");
    }
    String[] bounds = text.substring(1, text.length() - 1).split(", ", -1);
    if (bounds.length != 2) {
      throw new IllegalArgumentException("Invalid archived range: " + text + " ([from, to))");
    }
    return new Instant[] {Instant.parse(bounds[0]), Instant.parse(bounds[1])};
  }
}
