package org.meterstore.query.internal.exec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.meterstore.cold.snapshot.SnapshotView;

/**
 * Decides from Iceberg file statistics alone whether a cold scan may skip version resolution: it
 * may when no merge key can appear twice among the files the scan reads. That holds when every file
 * holds one version (its {@code version} bounds are equal) and files of different versions have
 * disjoint {@code from} ranges — a merge key contains {@code from}, two rows of one key share it,
 * and one version of one key is stored once. Delete files, missing statistics or an error turn
 * elision off: the decision errs towards resolving.
 */
final class MergeElision {
  private MergeElision() {}

  /** The decision, with the reason shown in plans. */
  record Decision(boolean elided, String reason) {}

  private record FileRange(long fromMin, long fromMax, Comparable<Object> version) {}

  static Decision decide(SnapshotView snapshot, Expression filter) {
    Types.NestedField version = snapshot.schema().findField("version");
    Types.NestedField from = snapshot.schema().findField("from");
    if (version == null || from == null) {
      return new Decision(false, "no version or from column");
    }
    List<FileRange> ranges = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = snapshot.planFilesWithColumnStats(filter)) {
      for (FileScanTask task : tasks) {
        if (!task.deletes().isEmpty()) {
          return new Decision(false, "delete files present");
        }
        FileRange range = range(task.file(), version, from);
        if (range == null) {
          return new Decision(false, "missing or multi-version file statistics");
        }
        ranges.add(range);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return overlapping(ranges)
        ? new Decision(false, "files of different versions overlap in from")
        : new Decision(true, ranges.size() + " files, one version each, disjoint across versions");
  }

  @SuppressWarnings("unchecked") // Iceberg's bounds of one column share one Comparable type
  private static FileRange range(DataFile file, Types.NestedField version, Types.NestedField from) {
    Map<Integer, ByteBuffer> lower = file.lowerBounds();
    Map<Integer, ByteBuffer> upper = file.upperBounds();
    if (lower == null || upper == null) {
      return null;
    }
    ByteBuffer vMin = lower.get(version.fieldId());
    ByteBuffer vMax = upper.get(version.fieldId());
    ByteBuffer fMin = lower.get(from.fieldId());
    ByteBuffer fMax = upper.get(from.fieldId());
    if (vMin == null || vMax == null || fMin == null || fMax == null) {
      return null;
    }
    Comparable<Object> low = (Comparable<Object>) Conversions.fromByteBuffer(version.type(), vMin);
    Object high = Conversions.fromByteBuffer(version.type(), vMax);
    if (low.compareTo(high) != 0) {
      return null;
    }
    long min = (Long) Conversions.fromByteBuffer(from.type(), fMin);
    long max = (Long) Conversions.fromByteBuffer(from.type(), fMax);
    return new FileRange(min, max, low);
  }

  private static boolean overlapping(List<FileRange> ranges) {
    ranges.sort(Comparator.comparingLong(FileRange::fromMin));
    List<FileRange> active = new ArrayList<>();
    for (FileRange r : ranges) {
      active.removeIf(a -> a.fromMax() < r.fromMin());
      for (FileRange a : active) {
        if (a.version().compareTo(r.version()) != 0) {
          return true;
        }
      }
      active.add(r);
    }
    return false;
  }
}
