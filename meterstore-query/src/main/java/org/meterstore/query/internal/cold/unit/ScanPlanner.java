package org.meterstore.query.internal.cold.unit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.cold.snapshot.SnapshotView;

/**
 * Splits a cold scan into {@link ScanUnit}s. The planned tasks are grouped by their {@code
 * month(from)} partition (all versions of a key share {@code from}, so a month is resolved alone).
 * In a month: a file that needs no resolution ({@link FileElision}) is a unit of its own; the rest
 * are merged as one unit when every one declares the layout's sort order; a month with a delete
 * file, or with an unsorted file to resolve, is read whole as records. Without a monthly partition
 * on some file, the whole scan is one group.
 */
public final class ScanPlanner {
  private ScanPlanner() {}

  /**
   * The units of a scan of {@code snapshot}, largest first.
   *
   * @param snapshot the pinned snapshot
   * @param filter the Iceberg filter for planning and pruning
   * @param resolve whether to keep only the winning version of each merge key and scope
   */
  public static List<ScanUnit> plan(SnapshotView snapshot, Expression filter, boolean resolve) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = snapshot.planFilesWithColumnStats(filter)) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<FileScanTask> elided = resolve ? FileElision.elided(tasks, snapshot.schema()) : null;
    List<ScanUnit> units = new ArrayList<>();
    for (Map.Entry<Integer, List<FileScanTask>> month : byMonth(snapshot, tasks).entrySet()) {
      plan(snapshot, filter, resolve, month.getKey(), month.getValue(), elided, units);
    }
    units.sort(Comparator.comparingLong(ScanUnit::weight).reversed());
    return units;
  }

  private static void plan(
      SnapshotView snapshot,
      Expression filter,
      boolean resolve,
      Integer month,
      List<FileScanTask> tasks,
      Set<FileScanTask> elided,
      List<ScanUnit> units) {
    long weight = tasks.stream().mapToLong(FileScanTask::length).sum();
    boolean deletes = tasks.stream().anyMatch(t -> !t.deletes().isEmpty());
    List<FileScanTask> merged = new ArrayList<>();
    for (FileScanTask t : tasks) {
      if (elided != null && !elided.contains(t)) {
        merged.add(t);
      }
    }
    boolean unsorted = merged.stream().anyMatch(t -> !snapshot.sortedByLayout(t));
    if (deletes || unsorted) {
      units.add(new RecordsUnit(monthFilter(filter, month), resolve, weight));
      return;
    }
    for (FileScanTask t : tasks) {
      if (elided == null || elided.contains(t)) {
        units.add(new FileUnit(t, "elided"));
      }
    }
    if (!merged.isEmpty()) {
      units.add(new MergeUnit(merged));
    }
  }

  /**
   * The tasks by UTC month of their {@code month(from)} partition; all under null if one lacks it.
   */
  private static Map<Integer, List<FileScanTask>> byMonth(
      SnapshotView snapshot, List<FileScanTask> tasks) {
    int fromId = snapshot.schema().findField("from").fieldId();
    Map<Integer, List<FileScanTask>> months = new TreeMap<>();
    for (FileScanTask task : tasks) {
      Integer month = month(task, fromId);
      if (month == null) {
        Map<Integer, List<FileScanTask>> whole =
            new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
        whole.put(null, tasks);
        return whole;
      }
      months.computeIfAbsent(month, m -> new ArrayList<>()).add(task);
    }
    return months;
  }

  private static Integer month(FileScanTask task, int fromId) {
    List<PartitionField> fields = task.spec().fields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).sourceId() == fromId
          && "month".equals(fields.get(i).transform().toString())) {
        return task.file().partition().get(i, Integer.class);
      }
    }
    return null;
  }

  /** {@code filter} bounded to one UTC month of {@code from} (all of it for null). */
  private static Expression monthFilter(Expression filter, Integer month) {
    if (month == null) {
      return filter;
    }
    LocalDate epoch = LocalDate.of(1970, 1, 1);
    long start = micros(epoch.plusMonths(month));
    long end = micros(epoch.plusMonths(month + 1L));
    return Expressions.and(
        filter,
        Expressions.and(
            Expressions.greaterThanOrEqual("from", start), Expressions.lessThan("from", end)));
  }

  private static long micros(LocalDate day) {
    return day.atStartOfDay(ZoneOffset.UTC).toEpochSecond() * 1_000_000L;
  }
}
