package org.meterstore.bench;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterTable;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.maintenance.MaintenanceOutcome;

/**
 * Benchmark 13 (group {@code corrections}): the latency of a late correction — one market
 * location's day (96 quarter-hours, or 24 hours of gas) restated at a higher version after its
 * window was archived — through {@code MeterTable.append}, which checks the batch against the
 * stored spans, then appends it to the cold tier. The cold tier holds every location's settled
 * days, one file per archived day with all locations in it, as daily archival leaves them. The
 * baseline is the same façade storing a day's first delivery of one location in the hot tier, in
 * the same run: what a back-end's daily write costs when it is not a correction.
 */
final class CorrectionBench {
  static final TableDefinition TABLE =
      TableDefinition.interval("corrections")
          .withPolicy(TablePolicy.DEFAULTS.withSettlementLag(Duration.ofDays(1)));
  private static final LocalDate FIRST = LocalDate.of(2026, 3, 2);
  private static final int ARCHIVED_DAYS = 7;
  private static final int MAX_BATCHES = 300;
  private static final DateTimeFormatter VERSION =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  private CorrectionBench() {}

  static List<Result> run(Deployment d, Profile p) throws Exception {
    int meters = p.ingestMeters();
    int batches = Math.min(p.latencyBatches(), MAX_BATCHES);
    // deliveries above W (archival windows are UTC days, a balancing day starts at 23:00 or 22:00
    // UTC the day before: the day after the last archived one still reaches below W)
    int deliveryDays = (batches + meters - 1) / meters;
    Dataset data = new Dataset(meters, FIRST, ARCHIVED_DAYS + 1 + deliveryDays, 5, 0, 0, p.seed());
    Instant loaded = Instant.parse("2026-03-10T12:00:00Z");
    try (MeterCatalog catalog = MeterCatalog.of(d.hot, d.cold, List.of(TABLE), Deployment.noop())) {
      catalog.createTables(loaded);
      MeterTable table = catalog.table(TABLE.name());
      for (int day = 0; day < ARCHIVED_DAYS; day++) {
        for (int m = 0; m < meters; m++) {
          table.append(data.meterDay(m, FIRST.plusDays(day)).originals(), loaded);
        }
      }
      MaintenanceOutcome archived =
          catalog.maintenance().maxWindowsPerCycle(ARCHIVED_DAYS + 2).runOnce(loaded);
      if (!archived.healthy()) {
        throw new IllegalStateException("archival failed: " + archived.rows());
      }
      Instant w = table.watermark();
      Random random = new Random(p.seed());
      List<Double> corrections = new ArrayList<>(batches);
      List<Double> deliveries = new ArrayList<>(batches);
      for (int b = 0; b < batches; b++) {
        int meter = random.nextInt(meters);
        LocalDate day = FIRST.plusDays(1 + random.nextInt(ARCHIVED_DAYS - 2));
        Instant now = loaded.plus(Duration.ofMinutes(b + 1L));
        List<Reading> correction = restated(data.meterDay(meter, day).originals(), now);
        corrections.add(timed(table, correction, now, w, Tier.COLD));
        List<Reading> delivery =
            data.meterDay(b % meters, FIRST.plusDays(ARCHIVED_DAYS + 1 + b / meters)).originals();
        deliveries.add(timed(table, delivery, now, w, Tier.HOT));
      }
      String dataset =
          String.format(
              Locale.ROOT,
              "%d locations x %d archived days (1/5 gas hourly; one file per day), %d correction"
                  + " batches of one location's day, W %s",
              meters,
              ARCHIVED_DAYS,
              batches,
              w);
      String baseline = "one location's first delivery of a day to the hot tier";
      return List.of(
          new Result(
              "13 late correction p50 (one location's day below W)",
              dataset,
              "ms",
              Timing.percentile(corrections, 50) * 1000,
              baseline,
              Timing.percentile(deliveries, 50) * 1000,
              null,
              "append() through the facade: check against the stored spans, cold commit"),
          new Result(
              "13 late correction p95 (one location's day below W)",
              dataset,
              "ms",
              Timing.percentile(corrections, 95) * 1000,
              baseline,
              Timing.percentile(deliveries, 95) * 1000,
              null,
              ""));
    }
  }

  /** {@code day}'s readings with new values under a version made at {@code now}. */
  private static List<Reading> restated(List<Reading> day, Instant now) {
    List<Reading> out = new ArrayList<>(day.size());
    for (Reading r : day) {
      out.add(
          r.toBuilder().value(r.value().add(BigDecimal.ONE)).version(VERSION.format(now)).build());
    }
    return out;
  }

  /** Seconds one append took; checks every reading went to {@code tier} and was stored. */
  private static double timed(
      MeterTable table, List<Reading> batch, Instant now, Instant w, Tier tier) {
    long started = System.nanoTime();
    WriteResult r = table.append(batch, now);
    double seconds = (System.nanoTime() - started) / 1e9;
    if (!r.tiers().stream().allMatch(t -> t == tier)
        || r.outcomes().stream().anyMatch(o -> o == WriteOutcome.DUPLICATE)) {
      throw new IllegalStateException(
          "a batch below/above W " + w + " was not stored in the " + tier + " tier: " + r);
    }
    return seconds;
  }
}
