package org.meterstore.query.internal.cold.unit;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * Decides per file, from Iceberg statistics alone, whether its rows need version resolution: not
 * when the file holds one version (equal {@code version} bounds) and no other file of the scan
 * whose {@code from} range overlaps its own holds another version (or may: several versions,
 * unknown bounds) — every version of a key shares {@code from}. An overlapping file with the same
 * single version conflicts too unless both came in one commit: one commit of MeterStore's stores a
 * version of a key once (the hot primary key, the correction append's duplicate check), but a
 * foreign writer may add the same version again, and then {@code recorded_at} decides between the
 * two rows. A file with delete files or without {@code from} bounds overlaps every file.
 */
final class FileElision {
  private FileElision() {}

  /** A file's {@code from} range and its single version, or null when it may hold several. */
  private record Range(
      FileScanTask task, long fromMin, long fromMax, Comparable<Object> version, Long commit) {

    /** Whether a key may appear in both files (their {@code from} ranges overlap). */
    boolean conflicts(Range other) {
      return version == null
          || other.version == null
          || version.compareTo(other.version) != 0
          || commit == null
          || !commit.equals(other.commit);
    }
  }

  /** The tasks that need no resolution (compared by identity). */
  static Set<FileScanTask> elided(List<FileScanTask> tasks, Schema schema) {
    Set<FileScanTask> out = Collections.newSetFromMap(new IdentityHashMap<>());
    Types.NestedField version = schema.findField("version");
    Types.NestedField from = schema.findField("from");
    if (version == null || from == null) {
      return out;
    }
    List<Range> ranges = new ArrayList<>();
    for (FileScanTask t : tasks) {
      Range r = t.deletes().isEmpty() ? range(t, version, from) : null;
      if (r == null) {
        return out; // overlaps every file: nothing is elided
      }
      ranges.add(r);
    }
    Set<FileScanTask> conflicted = Collections.newSetFromMap(new IdentityHashMap<>());
    ranges.sort(Comparator.comparingLong(Range::fromMin));
    List<Range> active = new ArrayList<>();
    for (Range r : ranges) {
      active.removeIf(a -> a.fromMax() < r.fromMin());
      for (Range a : active) {
        if (a.conflicts(r)) {
          conflicted.add(a.task());
          conflicted.add(r.task());
        }
      }
      active.add(r);
    }
    for (Range r : ranges) {
      if (r.version() != null && !conflicted.contains(r.task())) {
        out.add(r.task());
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked") // Iceberg's bounds of one column share one Comparable type
  private static Range range(FileScanTask task, Types.NestedField version, Types.NestedField from) {
    DataFile file = task.file();
    Map<Integer, ByteBuffer> lower = file.lowerBounds();
    Map<Integer, ByteBuffer> upper = file.upperBounds();
    if (lower == null || upper == null) {
      return null;
    }
    ByteBuffer fMin = lower.get(from.fieldId());
    ByteBuffer fMax = upper.get(from.fieldId());
    if (fMin == null || fMax == null) {
      return null;
    }
    long min = (Long) Conversions.fromByteBuffer(from.type(), fMin);
    long max = (Long) Conversions.fromByteBuffer(from.type(), fMax);
    ByteBuffer vMin = lower.get(version.fieldId());
    ByteBuffer vMax = upper.get(version.fieldId());
    Comparable<Object> single = null;
    if (vMin != null && vMax != null) {
      Comparable<Object> low =
          (Comparable<Object>) Conversions.fromByteBuffer(version.type(), vMin);
      if (low.compareTo(Conversions.fromByteBuffer(version.type(), vMax)) == 0) {
        single = low;
      }
    }
    return new Range(task, min, max, single, file.dataSequenceNumber());
  }
}
