package org.meterstore.bench;

import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.snapshot.ColdDataFile;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.table.ColdTable;

/**
 * Benchmark 3b (group {@code storage}), the storage of a small deployment: {@link #METERS} market
 * locations over {@link #DAYS} days, archived one UTC day at a time (each window in the hot tier's
 * primary-key order, as archival reads it) and the late corrections of the data set appended to the
 * cold tier on the day they are delivered, one append per day. Many small files: what a deployment
 * of tens of meters holds after a month, where per-file overhead (bloom filters, footers) rather
 * than the column data decides the bytes per reading. Whole file sizes per cold reading vs {@code
 * pg_total_relation_size} per reading of a PostgreSQL table holding the same rows with the
 * resolution index. The note splits the files' bytes by footer (columns, bloom filters, the rest).
 * A second line measures the same table after one compaction ({@code ColdTable.compact}, as {@code
 * maintain --compact} runs it): the closed month becomes one file, the month W lies in is left as
 * it is.
 */
final class StorageBench {
  static final TableDefinition TABLE = TableDefinition.interval("small_deployment");
  static final int METERS = 30;
  static final int DAYS = 40;
  private static final LocalDate FIRST = LocalDate.of(2026, 1, 1);
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyyMMdd").withZone(java.time.ZoneOffset.UTC);

  private StorageBench() {}

  static List<Result> run(Deployment d, Profile p) throws Exception {
    Dataset data = new Dataset(METERS, FIRST, DAYS, 5, 0.03, 0, p.seed());
    d.hot.createTables(List.of(TABLE), NOW);
    ColdTable table = d.cold.createTable(TABLE);
    // corrections by the UTC day their version (yyyyMMddHHmmss, the delivery) names
    Map<String, List<Reading>> late = new TreeMap<>();
    List<Object[]> all = new ArrayList<>();
    Instant start = MeteringCalendar.dayStart(FIRST, Commodity.STROM);
    int appends = 0;
    for (int day = 0; day < DAYS; day++) {
      Instant from = start.plus(java.time.Duration.ofDays(day));
      Instant to = from.plus(java.time.Duration.ofDays(1));
      Instant now = to.plusSeconds(7200);
      List<Object[]> window = new ArrayList<>();
      for (int m = 0; m < METERS; m++) {
        for (LocalDate local = MeteringCalendar.localDay(from).minusDays(1);
            local.isBefore(MeteringCalendar.localDay(to).plusDays(1));
            local = local.plusDays(1)) {
          if (local.isBefore(FIRST) || !local.isBefore(data.endDay())) {
            continue;
          }
          Dataset.MeterDay md = data.meterDay(m, local);
          for (Reading r : md.originals()) {
            if (!r.from().isBefore(from) && r.from().isBefore(to)) {
              window.add(StoredRow.of(TABLE, StoredReading.accept(r, now)));
            }
          }
          if (!local.isBefore(MeteringCalendar.localDay(from))
              && local.isBefore(MeteringCalendar.localDay(to))) {
            for (Reading c : md.corrections()) {
              late.computeIfAbsent(c.version().toString().substring(0, 8), k -> new ArrayList<>())
                  .add(c);
            }
          }
        }
      }
      window.sort(primaryKeyOrder());
      table.archive(new ArchiveRequest(from, to, now, 1), window);
      all.addAll(window);
      // the corrections delivered today whose readings are archived
      List<Reading> due = new ArrayList<>();
      for (Reading c : late.getOrDefault(DAY.format(from), List.of())) {
        if (c.from().isBefore(to)) {
          due.add(c);
        }
      }
      if (!due.isEmpty()) {
        List<StoredReading> stored = due.stream().map(c -> StoredReading.accept(c, now)).toList();
        table.appendCorrections(stored, now);
        stored.forEach(s -> all.add(StoredRow.of(TABLE, s)));
        appends++;
      }
    }
    List<ColdDataFile> cold = table.view(SnapshotSelector.current()).dataFiles();
    List<String> files = QueryBench.dataFiles(cold);
    long coldRows = cold.stream().mapToLong(ColdDataFile::recordCount).sum();
    FooterStats footers = FooterStats.of(files);
    long pgBytes = plainBytes(d, all);
    // then one compaction as the maintenance loop runs it: January is closed, February is not
    Instant end = start.plus(java.time.Duration.ofDays(DAYS)).plusSeconds(7200);
    table.compact(end, 1, 12, () -> true);
    List<ColdDataFile> compacted = table.view(SnapshotSelector.current()).dataFiles();
    List<String> compactedFiles = QueryBench.dataFiles(compacted);
    FooterStats after = FooterStats.of(compactedFiles);
    String sizes =
        String.format(
            Locale.ROOT,
            "%d locations x %d days (1/5 gas hourly), daily archival, late corrections appended"
                + " (%d appends): %,d cold rows in %d files, no compaction",
            METERS,
            DAYS,
            appends,
            coldRows,
            files.size());
    return List.of(
        new Result(
            "3b storage, small deployment",
            sizes,
            "bytes/reading",
            (double) footers.fileBytes() / coldRows,
            "PostgreSQL table + index (pg_total_relation_size)",
            (double) pgBytes / all.size(),
            Target.ratioAtMost(0.01),
            footers.describe(coldRows)
                + String.format(
                    Locale.ROOT, " PostgreSQL %,d bytes / %,d rows", pgBytes, all.size())),
        new Result(
            "3b storage, small deployment, compacted",
            String.format(
                Locale.ROOT,
                "the same table after one compaction (closed months rewritten): %d files",
                compactedFiles.size()),
            "bytes/reading",
            (double) after.fileBytes() / coldRows,
            "PostgreSQL table + index (pg_total_relation_size)",
            (double) pgBytes / all.size(),
            Target.valueAtMost(6.0),
            after.describe(coldRows)));
  }

  /** The hot tier's primary-key order: MaLo, channel, from, version. */
  private static Comparator<Object[]> primaryKeyOrder() {
    int malo = index(StandardColumn.MALO_ID);
    int obis = index(StandardColumn.OBIS_CODE);
    int from = index(StandardColumn.FROM);
    return Comparator.<Object[], String>comparing(r -> (String) r[malo])
        .thenComparing(r -> (String) r[obis])
        .thenComparing(r -> (Instant) r[from]);
  }

  private static int index(StandardColumn column) {
    List<String> names = TABLE.columns().stream().map(c -> c.name()).toList();
    return names.indexOf(column.columnName());
  }

  /** The same rows in one PostgreSQL table with the resolution index, as benchmark 3's. */
  private static long plainBytes(Deployment d, List<Object[]> rows) throws Exception {
    try (Statement s = d.raw.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS plain_small");
      s.execute(
          "CREATE TABLE plain_small.readings (LIKE \""
              + d.hot.schema()
              + "\".small_deployment INCLUDING DEFAULTS INCLUDING CONSTRAINTS)");
      CopyText.copy(d.raw, CopyText.copyIn("plain_small.readings", TABLE), rows);
      s.execute(
          "CREATE INDEX small_resolution ON plain_small.readings"
              + " (malo_id, obis_code, \"from\", version_scope, version DESC, recorded_at DESC)");
      s.execute("VACUUM ANALYZE plain_small.readings");
      try (ResultSet rs = s.executeQuery("SELECT pg_total_relation_size('plain_small.readings')")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
