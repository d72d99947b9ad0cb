package org.meterstore.cli.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.CompactionReport;
import org.meterstore.maintenance.outcome.TableOutcome;

/**
 * Adds up the rows of one or more maintenance cycles per table, and picks the exit code: 0 when
 * nothing failed, 75 when every failure is retryable (a deferred detach, a lock timeout,
 * unreachable storage), 1 otherwise.
 */
final class Outcomes {
  private final Map<String, Tally> tables = new LinkedHashMap<>();

  /** Adds one cycle. */
  void add(MaintenanceOutcome outcome) {
    for (TableOutcome row : outcome.rows()) {
      tables.computeIfAbsent(row.table(), t -> new Tally()).add(row);
    }
  }

  /** Whether the last cycle archived any window. */
  static boolean archivedAny(MaintenanceOutcome outcome) {
    return outcome.windowsArchived() > 0;
  }

  /** One row per table: the last status, the totals, the last failure. */
  Rows rows() {
    List<List<Object>> out = new ArrayList<>();
    for (Map.Entry<String, Tally> e : tables.entrySet()) {
      Tally t = e.getValue();
      List<Object> row = new ArrayList<>();
      row.add(e.getKey());
      row.add(status(t).name());
      row.add(t.windows);
      row.add(t.rows);
      row.add(invariantViolations(t.last));
      row.add(t.erased);
      row.add(t.filesRewritten);
      row.add(t.filesWritten);
      row.add(t.bytesRewritten);
      row.add(t.bytesWritten);
      row.add(t.orphanFiles);
      row.add(t.last.failure().map(Throwable::getMessage).orElse(null));
      out.add(row);
    }
    return new Rows(
        List.of(
            "table",
            "status",
            "windows_archived",
            "rows_archived",
            "invariant_violations",
            "subjects_erased",
            "files_rewritten",
            "files_written",
            "bytes_rewritten",
            "bytes_written",
            "orphan_files_removed",
            "failure"),
        out);
  }

  /**
   * The status of a table's rows: the last cycle's, except that cycles which archived windows and
   * then found nothing more due archived (the last one alone would say {@code NOTHING_DUE} beside a
   * positive {@code windows_archived}).
   */
  private static TableOutcome.Status status(Tally t) {
    TableOutcome.Status last = t.last.status();
    return last == TableOutcome.Status.NOTHING_DUE && t.windows > 0
        ? TableOutcome.Status.ARCHIVED
        : last;
  }

  /**
   * The {@code invariant_violations} column: the rows below W; -1 when a table's check could not
   * run (its run failed first); 0 for the retention row, which checks no table.
   */
  private static long invariantViolations(TableOutcome row) {
    return row.invariantViolations().orElse(row.isRetention() ? 0 : -1);
  }

  /** The exit code of the last cycle of each table. */
  int exitCode() {
    boolean failed = false;
    boolean permanent = false;
    for (Tally t : tables.values()) {
      TableOutcome row = t.last;
      if (row.status() == TableOutcome.Status.DEFERRED) {
        failed = true;
      } else if (row.unhealthy()) {
        failed = true;
        permanent |= row.failure().map(f -> !f.isRetryable()).orElse(true);
      }
    }
    if (!failed) {
      return ExitCode.OK;
    }
    return permanent ? ExitCode.ERROR : ExitCode.RETRYABLE;
  }

  /** One line per table whose last row needs attention. */
  List<String> warnings() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Tally> e : tables.entrySet()) {
      TableOutcome row = e.getValue().last;
      if (row.unhealthy() || row.status() == TableOutcome.Status.DEFERRED) {
        String why =
            row.failure()
                .map(Throwable::getMessage)
                .orElse(
                    row.invariantViolations().orElse(0) > 0
                        ? row.invariantViolations().getAsLong() + " hot rows below the watermark"
                        : "a lock was not granted within ddl_lock_timeout; retry later");
        out.add(
            "table "
                + e.getKey()
                + ": "
                + row.status().name().toLowerCase(Locale.ROOT)
                + ": "
                + why);
      }
    }
    return out;
  }

  private static final class Tally {
    int windows;
    long rows;
    long erased;
    long filesRewritten;
    long filesWritten;
    long bytesRewritten;
    long bytesWritten;
    long orphanFiles;
    TableOutcome last;

    void add(TableOutcome row) {
      CompactionReport c = row.counts().compaction();
      filesRewritten += c.filesRewritten();
      filesWritten += c.filesWritten();
      bytesRewritten += c.bytesBefore();
      bytesWritten += c.bytesAfter();
      windows += row.counts().windowsArchived();
      rows += row.counts().rowsArchived();
      erased += row.counts().subjectsErased();
      orphanFiles += row.counts().orphanFilesRemoved();
      last = row;
    }
  }
}
