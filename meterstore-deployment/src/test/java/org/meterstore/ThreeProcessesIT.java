package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.testing.Tally;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.slf4j.LoggerFactory;

/**
 * Three JVMs on the same two tables (electricity and gas) at once, for a bounded time: an appender
 * writing day by day (originals, redeliveries, corrections that race archival and late corrections
 * below W), a maintainer archiving and reclaiming on a simulated clock that follows the appender's
 * finished days, and a querier reading both tiers all along. Every query answers or fails
 * retryably, and its counts never go back (readings are only ever added); every outcome the
 * appender saw is what the reference model says; at the end every window is archived exactly once
 * (the archive commits cover everything below W without gap or overlap), SQL answers what the model
 * holds to the last decimal, and no hot row is left below W.
 */
@ExtendWith(PostgresExtension.class)
class ThreeProcessesIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
  private static final long SEED = 3;
  private static final int DAYS = 8;

  /** Wall time the appender may spend before it stops after the day in progress. */
  private static final int BUDGET_SECONDS = 25;

  /** Reader pins are stamped long after the simulated March: they never expire under a query. */
  private static final Instant PIN_CLOCK = Instant.parse("2027-01-01T00:00:00Z");

  @TempDir static Path warehouse;
  @TempDir static Path scratch;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @Test
  void anAppenderAMaintainerAndAQuerierAtOnceLoseNothingAndArchiveEveryWindowOnce(TestDatabase db)
      throws Exception {
    List<TableDefinition> tables =
        List.of(
            CatalogFixture.table("drei_strom", LAG, GRACE),
            CatalogFixture.table("drei_gas", LAG, GRACE));
    DeliveryPlan plan = new DeliveryPlan(tables, SEED, DAYS);
    try (MeterCatalog catalog = d.catalog(tables, OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
    }
    String names = "drei_strom,drei_gas";
    Path go = scratch.resolve("go");
    Path stop = scratch.resolve("stop");
    Path clock = scratch.resolve("clock");
    ChildArgs appenderArgs =
        new ChildArgs(db, warehouse, names, LAG, GRACE)
            .put("mode", "days")
            .put("seed", Long.toString(SEED))
            .put("days", Integer.toString(DAYS))
            .put("budgetSeconds", Integer.toString(BUDGET_SECONDS))
            .put("clockFile", clock.toString())
            .put("goFile", go.toString());
    ChildArgs maintainerArgs =
        new ChildArgs(db, warehouse, names, LAG, GRACE)
            .put("start", plan.maintainerClock(DeliveryPlan.FIRST_DAY.minusDays(1)).toString())
            .put("stepMinutes", "120")
            .put("maxSteps", "3")
            .put("clockFile", clock.toString())
            .put("stopFile", stop.toString())
            .put("goFile", go.toString());
    ChildArgs querierArgs =
        new ChildArgs(db, warehouse, names, LAG, GRACE)
            .put("stopFile", stop.toString())
            .put("pinClock", PIN_CLOCK.toString())
            .put("goFile", go.toString());
    try (Child appender = Child.start(AppendChild.class, log("appender"), appenderArgs.list());
        Child maintainer =
            Child.start(MaintenanceChild.class, log("maintainer"), maintainerArgs.list());
        Child querier = Child.start(QueryChild.class, log("querier"), querierArgs.list())) {
      for (Child c : List.of(appender, maintainer, querier)) {
        c.await("READY", 120);
      }
      Files.createFile(go);
      appender.await("DONE", 120);
      Files.createFile(stop);
      maintainer.await("DONE", 120);
      querier.await("DONE", 60);
      for (Child c : List.of(appender, maintainer, querier)) {
        assertThat(c.exit(60)).isZero();
      }

      summarise(appender.seen(), querier.seen(), maintainer.rows());
      Map<String, ReferenceModel> models = assertAppended(plan, tables, appender.seen());
      assertMaintained(maintainer.rows());
      LocalDate lastDay =
          appender.seen().stream()
              .filter(l -> l.startsWith("DAY "))
              .map(l -> LocalDate.parse(l.substring(4)))
              .reduce((a, b) -> b)
              .orElseThrow();
      assertThat(lastDay).isAfterOrEqualTo(DeliveryPlan.FIRST_DAY.plusDays(3));
      Instant w = DeliveryPlan.finalWatermark(lastDay);
      try (MeterCatalog catalog = d.catalog(tables, OpenTelemetry.noop())) {
        for (TableDefinition t : tables) {
          ReferenceModel model = models.get(t.name());
          assertThat(d.cold.createTable(t).watermark()).as("W of %s", t.name()).isEqualTo(w);
          ArchiveCommits.assertEachWindowOnce(d.cold.createTable(t), w);
          assertThat(d.tiers(t)).isEqualTo(Tally.expected(t, model));
          ModelQuery.assertAgrees(catalog, t, model);
          assertThat(d.hot.partitions().countRowsBelow(t, w)).isZero();
          assertThat(d.hot.partitions().list(t)).noneMatch(p -> p.lowerBound().isBefore(w));
        }
      }
      assertQueried(querier.seen(), models);
    }
  }

  /**
   * Every batch the appender wrote, replayed into one reference model per table: the outcomes it
   * printed are the model's (a batch retried after a retryable failure may report what its failed
   * attempt had stored as {@code DUPLICATE}).
   */
  private static Map<String, ReferenceModel> assertAppended(
      DeliveryPlan plan, List<TableDefinition> tables, List<String> lines) {
    assertThat(lines).noneMatch(l -> l.startsWith("RETRY ") && l.split(" ")[3].equals("false"));
    Map<String, ReferenceModel> models = new HashMap<>();
    tables.forEach(t -> models.put(t.name(), new ReferenceModel(t)));
    List<DeliveryPlan.Step> steps = plan.steps();
    List<String[]> batches =
        lines.stream().filter(l -> l.startsWith("BATCH ")).map(l -> l.split(" ")).toList();
    assertThat(batches).hasSizeGreaterThan(8);
    for (int i = 0; i < batches.size(); i++) {
      String[] b = batches.get(i);
      assertThat(Integer.parseInt(b[1])).isEqualTo(i);
      DeliveryPlan.Step step = steps.get(i);
      List<WriteOutcome> expected = models.get(step.table()).write(step.readings(), step.now());
      String wanted =
          expected.stream().map(o -> o.name().substring(0, 2)).collect(Collectors.joining());
      if (b[4].equals("1")) {
        assertThat(b[2]).as("outcomes of batch %d", i).isEqualTo(wanted);
      } else {
        assertThat(b[2]).as("outcomes of retried batch %d", i).hasSameSizeAs(wanted);
        for (int k = 0; k < wanted.length(); k += 2) {
          assertThat(b[2].substring(k, k + 2)).isIn(wanted.substring(k, k + 2), "DU");
        }
      }
    }
    return models;
  }

  private static void assertMaintained(List<String[]> rows) {
    assertThat(rows).isNotEmpty();
    assertThat(rows).noneMatch(r -> r[3].equals("FAILED") || r[3].equals("QUARANTINED"));
    assertThat(rows).allMatch(r -> r[5].equals("0"));
    assertThat(rows).anyMatch(r -> r[3].equals("ARCHIVED"));
  }

  /**
   * Every query answered or failed retryably; counts of both relations and the versions' sum never
   * decrease (readings are only added; archival moves them), and never exceed the final model.
   */
  private static void assertQueried(List<String> lines, Map<String, ReferenceModel> models) {
    assertThat(lines).noneMatch(l -> l.startsWith("BAD "));
    Map<String, long[]> lastCount = new HashMap<>();
    Map<String, BigDecimal> lastSum = new HashMap<>();
    int answers = 0;
    for (String line : lines) {
      if (!line.startsWith("Q ")) {
        continue;
      }
      answers++;
      String[] q = line.split(" ");
      long count = Long.parseLong(q[2]);
      long[] previous = lastCount.computeIfAbsent(q[1], k -> new long[] {0});
      assertThat(count).as("%s after %d", line, previous[0]).isGreaterThanOrEqualTo(previous[0]);
      previous[0] = count;
      if (q[1].endsWith("_versions")) {
        BigDecimal sum = q[3].equals("null") ? BigDecimal.ZERO : new BigDecimal(q[3]);
        BigDecimal before = lastSum.getOrDefault(q[1], BigDecimal.ZERO);
        assertThat(sum).as("%s after %s", line, before).isGreaterThanOrEqualTo(before);
        lastSum.put(q[1], sum);
        String table = q[1].substring(0, q[1].length() - "_versions".length());
        assertThat(count).as(line).isLessThanOrEqualTo(models.get(table).versions().size());
      } else {
        assertThat(count).as(line).isLessThanOrEqualTo(models.get(q[1]).current().size());
      }
    }
    assertThat(answers).isGreaterThanOrEqualTo(8);
  }

  private static Path log(String which) throws java.io.IOException {
    return Files.createDirectories(Path.of("target", "child-logs"))
        .resolve("ThreeProcessesIT-" + which + ".log");
  }

  /** One line of what the run exercised, so that a quiet pass can be told from a busy one. */
  private static void summarise(List<String> appended, List<String> queried, List<String[]> rows) {
    long cold = 0;
    long retried = 0;
    for (String line : appended) {
      if (line.startsWith("BATCH ")) {
        String[] b = line.split(" ");
        cold += b[3].chars().filter(ch -> ch == 'C').count();
        retried += b[4].equals("1") ? 0 : 1;
      }
    }
    org.slf4j.Logger log = LoggerFactory.getLogger(ThreeProcessesIT.class);
    appended.stream().filter(l -> l.startsWith("RETRY ")).forEach(l -> log.info("appender: {}", l));
    queried.stream()
        .filter(l -> l.startsWith("RETRYABLE "))
        .forEach(l -> log.info("querier: {}", l));
    log.info(
        "appender: {} days, {} batches ({} retried), {} readings cold (late or re-routed);"
            + " querier: {} answers, {} retryable failures; maintainer: {} cycles, {} windows",
        appended.stream().filter(l -> l.startsWith("DAY ")).count(),
        appended.stream().filter(l -> l.startsWith("BATCH ")).count(),
        retried,
        cold,
        queried.stream().filter(l -> l.startsWith("Q ")).count(),
        queried.stream().filter(l -> l.startsWith("RETRYABLE ")).count(),
        rows.size(),
        rows.stream().mapToInt(r -> Integer.parseInt(r[4])).sum());
  }
}
