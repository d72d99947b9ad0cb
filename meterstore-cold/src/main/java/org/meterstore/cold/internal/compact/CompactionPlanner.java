package org.meterstore.cold.internal.compact;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Chooses which data files a compaction rewrites, as a pure function of the files' statistics, W
 * and the target size, so that the rules are unit-tested without a table:
 *
 * <ul>
 *   <li>only partitions of the current spec whose month lies wholly below W (month end at or before
 *       W): the month W lies in still receives archival windows and is left alone;
 *   <li>only files smaller than three quarters of the target size (Iceberg's own default ratio for
 *       {@code min-file-size-bytes}), and only where a partition has at least two of them;
 *   <li>no partition with delete files (MeterStore writes none; a rewrite would have to apply them,
 *       and a new data sequence number would escape equality deletes);
 *   <li>no partition whose small files all hold the same single version but came from different
 *       commits: merged, they would form one single-version file that merge elision trusts to hold
 *       each key once, while two commits may have stored a key twice (a foreign writer);
 *   <li>at most {@link #MAX_FILES_PER_GROUP} files per rewrite group (the merge opens them all at
 *       once) and at most {@code maxPartitions} partitions per call; the rest waits for the next.
 * </ul>
 */
public final class CompactionPlanner {
  /** Files merged at once: each open Parquet reader holds a row group. */
  static final int MAX_FILES_PER_GROUP = 64;

  private CompactionPlanner() {}

  /**
   * One data file as the planner sees it.
   *
   * @param location the file's location (its identity)
   * @param specId the partition spec it was written with
   * @param partition the partition path, e.g. {@code from_month=2026-03}
   * @param month the partition's {@code month(from)} value (months since 1970-01), or null
   * @param sizeBytes its size on disk
   * @param dataSequenceNumber the sequence number of the commit that added its rows
   * @param singleVersion its only {@code version} value when its bounds are equal, else null
   * @param hasDeletes whether delete files apply to it
   */
  public record FileStats(
      String location,
      int specId,
      String partition,
      Integer month,
      long sizeBytes,
      long dataSequenceNumber,
      Object singleVersion,
      boolean hasDeletes) {}

  /** The small files of one partition rewritten together. */
  public record Group(String partition, List<FileStats> files) {
    /** Their total size in bytes. */
    public long bytes() {
      return files.stream().mapToLong(FileStats::sizeBytes).sum();
    }
  }

  /**
   * The groups to rewrite, partitions in path order.
   *
   * @param currentSpecId the table's current spec
   * @param watermark W: a partition is closed when its month ends at or before it
   * @param targetFileSizeBytes the table's target file size
   * @param maxPartitions the most partitions one call rewrites, at least 1
   */
  public static List<Group> plan(
      List<FileStats> files,
      int currentSpecId,
      Instant watermark,
      long targetFileSizeBytes,
      int maxPartitions) {
    long small = targetFileSizeBytes / 4 * 3;
    Map<String, List<FileStats>> byPartition = new LinkedHashMap<>();
    files.stream()
        .filter(f -> f.specId() == currentSpecId)
        .sorted(Comparator.comparing(FileStats::partition))
        .forEach(f -> byPartition.computeIfAbsent(f.partition(), k -> new ArrayList<>()).add(f));
    List<Group> groups = new ArrayList<>();
    int partitions = 0;
    for (Map.Entry<String, List<FileStats>> e : byPartition.entrySet()) {
      List<FileStats> all = e.getValue();
      if (partitions >= maxPartitions || !closed(all.get(0).month(), watermark)) {
        continue;
      }
      if (all.stream().anyMatch(FileStats::hasDeletes)) {
        continue;
      }
      List<FileStats> candidates = new ArrayList<>();
      for (FileStats f : all) {
        if (f.sizeBytes() < small) {
          candidates.add(f);
        }
      }
      if (candidates.size() < 2 || wouldFakeOneVersion(candidates)) {
        continue;
      }
      candidates.sort(
          Comparator.comparingLong(FileStats::dataSequenceNumber)
              .thenComparing(FileStats::location));
      partitions++;
      for (int i = 0; i < candidates.size(); i += MAX_FILES_PER_GROUP) {
        List<FileStats> part =
            candidates.subList(i, Math.min(candidates.size(), i + MAX_FILES_PER_GROUP));
        if (part.size() >= 2) {
          groups.add(new Group(e.getKey(), List.copyOf(part)));
        }
      }
    }
    return groups;
  }

  /** Whether the month {@code month} (months since 1970-01, UTC) ends at or before {@code w}. */
  static boolean closed(Integer month, Instant w) {
    if (month == null) {
      return false;
    }
    Instant end =
        LocalDate.of(1970, 1, 1).plusMonths(month + 1L).atStartOfDay().toInstant(ZoneOffset.UTC);
    return !end.isAfter(w);
  }

  /** All of one single version, from more than one commit (see the class comment). */
  private static boolean wouldFakeOneVersion(List<FileStats> candidates) {
    Object first = candidates.get(0).singleVersion();
    if (first == null) {
      return false;
    }
    for (FileStats f : candidates) {
      if (!Objects.equals(first, f.singleVersion())) {
        return false;
      }
    }
    return candidates.stream().mapToLong(FileStats::dataSequenceNumber).distinct().count() > 1;
  }
}
