package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.maintenance.testing.Tally;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * Ten days of 100 meters' quarter-hours (with corrections and redeliveries) maintained at a
 * simulated {@code now} that steps forward half a day at a time, each day's deliveries arriving an
 * hour after the day ends and the corrections arriving half way (those below W appended to the cold
 * tier as late corrections, the rest written hot): each due window is archived once, W advances
 * window by window, a window's partition stays detached through the reader grace and is reclaimed
 * after it, the invariant holds after every cycle, and both tiers together hold exactly the
 * reference model's stored versions per day.
 */
@ExtendWith(PostgresExtension.class)
class TenDaysOfMaintenanceIT {
  private static final Duration LAG = Duration.ofDays(2);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant WRITTEN = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant CORRECTIONS_ARRIVE = Instant.parse("2026-03-08T00:00:00Z");
  private static final Attributes LASTGANG =
      Attributes.of(AttributeKey.stringKey("table"), "lastgang");

  @TempDir Path warehouse;

  @Test
  void archivesEachDueWindowOnceAndReclaimsOnlyAfterTheGrace(TestDatabase db) throws Exception {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build();
    TableDefinition table = CatalogFixture.table("lastgang", LAG, GRACE);
    Workload workload = new Workload(100, LocalDate.of(2026, 3, 2), 10, 0, 0.03, 0.02, 7);
    ReferenceModel model = new ReferenceModel(table);
    try (CatalogFixture d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), otel)) {
      d.create(List.of(table), WRITTEN);
      Arrivals arrivals = new Arrivals(workload);
      MeterCatalog catalog = d.catalog(List.of(table), otel);
      MaintenanceBuilder loop = catalog.maintenance();
      ColdTable cold = d.cold.createTable(table);

      Instant now = Instant.parse("2026-03-03T12:00:00Z");
      Instant lastW = cold.watermark();
      int archivedWindows = 0;
      long lateCorrections = 0;
      long routedCold = 0;
      for (;
          now.isBefore(Instant.parse("2026-03-16T00:00:00Z"));
          now = now.plus(Duration.ofHours(12))) {
        arrivals.deliverDaysUpTo(now, d, table, model);
        if (now.equals(CORRECTIONS_ARRIVE)) {
          for (Map.Entry<List<Reading>, WriteResult> e :
              arrivals.deliverCorrections(now, catalog, table, model).entrySet()) {
            WriteResult r = e.getValue();
            for (int i = 0; i < r.size(); i++) {
              boolean toCold = r.tier(i) == Tier.COLD;
              assertThat(toCold)
                  .as("routed by W %s", lastW)
                  .isEqualTo(e.getKey().get(i).from().isBefore(lastW));
              routedCold += toCold ? 1 : 0;
              lateCorrections += toCold && r.outcome(i) != WriteOutcome.DUPLICATE ? 1 : 0;
            }
          }
          assertThat(lateCorrections).isPositive();
        }
        MaintenanceOutcome outcome = loop.runOnce(now);
        TableOutcome row = outcome.row("lastgang").orElseThrow();
        Instant w = cold.watermark();
        Instant due = now.minus(LAG).truncatedTo(ChronoUnit.DAYS);
        Instant expectedW = due.isBefore(Instant.parse("2026-03-02T00:00:00Z")) ? lastW : due;
        assertThat(w).as("W at %s", now).isEqualTo(expectedW);
        assertThat(d.hot.partitions().floor(table)).as("hot floor at %s", now).isEqualTo(w);
        assertThat(row.status()).isEqualTo(w.equals(lastW) ? Status.NOTHING_DUE : Status.ARCHIVED);
        assertThat(row.invariantViolations()).hasValue(0);
        assertThat(outcome.healthy()).isTrue();
        archivedWindows += row.counts().windowsArchived();
        if (!w.equals(lastW)) {
          assertGraceIsKept(loop, d, table, now, w);
        }
        lastW = w;
      }

      assertThat(d.tiers(table)).isEqualTo(Tally.expected(table, model));
      List<SnapshotInfo> archives =
          cold.snapshots().stream().filter(s -> "archive".equals(s.meterstoreOperation())).toList();
      assertThat(archives).hasSize(archivedWindows);
      assertThat(archives.stream().map(SnapshotInfo::watermark).distinct())
          .hasSize(archivedWindows);
      assertThat(d.hot.partitions().countRowsBelow(table, cold.watermark())).isZero();

      Map<String, Long> sums = counters(reader);
      assertThat(sums.get("meterstore.archival.rows"))
          .isEqualTo(
              model.versions().size()
                  - lateCorrections
                  - d.scalar("SELECT count(*) FROM meterstore.lastgang"));
      assertThat(sums.get("meterstore.partitions.dropped")).isEqualTo((long) archivedWindows);
      assertThat(sums.get("meterstore.write.late_corrections")).isEqualTo(routedCold);
      assertThat(gauge(reader, "meterstore.tiering.invariant_violations")).isZero();
    }
  }

  /**
   * After a cycle that moved W: the newest archived partition is detached and kept for the grace (a
   * cycle 30 minutes later keeps it), every older one is gone after the grace (a cycle 61 minutes
   * later drops the newest too).
   */
  private static void assertGraceIsKept(
      MaintenanceBuilder loop, CatalogFixture d, TableDefinition table, Instant now, Instant w) {
    List<PartitionInfo> below = below(d, table, w);
    assertThat(below).hasSize(1);
    assertThat(below.get(0).state()).isEqualTo(PartitionState.DETACHED);
    assertThat(below.get(0).upperBound()).isEqualTo(w);

    loop.runOnce(now.plus(Duration.ofMinutes(30)));
    assertThat(below(d, table, w)).hasSize(1);
    loop.runOnce(now.plus(Duration.ofMinutes(61)));
    assertThat(below(d, table, w)).isEmpty();
  }

  /**
   * The workload's deliveries by arrival: each Berlin day an hour after it ends, then corrections.
   */
  private static final class Arrivals {
    private final TreeMap<Instant, List<List<Reading>>> days = new TreeMap<>();
    private final List<List<Reading>> corrections = new ArrayList<>();

    Arrivals(Workload workload) {
      for (Workload.Delivery delivery : workload.deliveries()) {
        if (delivery.correction()) {
          corrections.add(delivery.readings());
        } else {
          Instant arrives = delivery.readings().get(0).from().plus(Duration.ofHours(25));
          days.computeIfAbsent(arrives, k -> new ArrayList<>()).add(delivery.readings());
        }
      }
    }

    void deliverDaysUpTo(
        Instant now, CatalogFixture d, TableDefinition table, ReferenceModel model) {
      while (!days.isEmpty() && !days.firstKey().isAfter(now)) {
        Map.Entry<Instant, List<List<Reading>>> day = days.pollFirstEntry();
        List<List<Reading>> batches = day.getValue();
        for (int i = 0; i < batches.size(); i += 10) {
          List<Reading> batch = new ArrayList<>();
          batches.subList(i, Math.min(batches.size(), i + 10)).forEach(batch::addAll);
          d.hot.write(table, batch, day.getKey());
          model.write(batch, day.getKey());
        }
      }
    }

    /** Appends each correction through the façade; returns each batch with its result. */
    Map<List<Reading>, WriteResult> deliverCorrections(
        Instant now, MeterCatalog catalog, TableDefinition table, ReferenceModel model) {
      Map<List<Reading>, WriteResult> results = new java.util.LinkedHashMap<>();
      for (List<Reading> batch : corrections) {
        results.put(batch, catalog.table(table.name()).append(batch, now));
        model.write(batch, now);
      }
      return results;
    }
  }

  private static List<PartitionInfo> below(CatalogFixture d, TableDefinition table, Instant w) {
    return d.hot.partitions().list(table).stream().filter(p -> !p.upperBound().isAfter(w)).toList();
  }

  private static Map<String, Long> counters(InMemoryMetricReader reader) {
    return reader.collectAllMetrics().stream()
        .filter(m -> !m.getLongSumData().getPoints().isEmpty())
        .collect(
            Collectors.toMap(
                MetricData::getName,
                m ->
                    m.getLongSumData().getPoints().stream()
                        .filter(p -> p.getAttributes().equals(LASTGANG))
                        .mapToLong(p -> p.getValue())
                        .sum()));
  }

  private static long gauge(InMemoryMetricReader reader, String name) {
    return reader.collectAllMetrics().stream()
        .filter(m -> m.getName().equals(name))
        .flatMap(m -> m.getLongGaugeData().getPoints().stream())
        .filter(p -> p.getAttributes().equals(LASTGANG))
        .mapToLong(p -> p.getValue())
        .findFirst()
        .orElseThrow();
  }
}
