package org.meterstore.hot.internal.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.privacy.Retention;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.SweepResult;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.hot.subject.Trigger;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A sweep that dies inside a batch's transaction: the batches before it stay committed with their
 * trail entries and counts, the dying batch leaves nothing, and the next sweep finishes the job so
 * that counter, trail and registry agree.
 */
@ExtendWith(PostgresExtension.class)
class SweepCrashIT {
  private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
  private static final Retention MSBG = Retention.calendarYears(3);
  private static final int MAPPINGS = 17;
  private static final int BATCH = 4;

  @Test
  void aSweepThatFailsMidBatchKeepsItsCommittedBatchesAndTheNextOneFinishesWithoutDoubleCounting(
      TestDatabase db) throws SQLException {
    try (HotStore store =
        HotStore.open(db.dataSource(), HotSettings.DEFAULTS, OpenTelemetry.noop())) {
      store.createTables(List.of(), NOW);
      for (int i = 0; i < MAPPINGS; i++) {
        store
            .subjects()
            .registerSubject("C-" + i, Instant.parse("2021-08-01T00:00:00Z"), Commodity.STROM, NOW);
      }
    }
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build()) {
      Database database = new Database(db.dataSource(), "meterstore", Duration.ofSeconds(10));
      SubjectRegistry crashing =
          new SubjectRegistry(
              database,
              null,
              sdk,
              batch -> {
                if (batch == 3) {
                  throw new SQLException("simulated crash in batch 3", "57P01");
                }
              });

      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class,
              () -> crashing.sweep(MSBG, "§ 60 Abs. 6 MsbG", "retention-job", NOW, BATCH));

      assertThat(e.isRetryable()).isTrue();
      assertThat(e.getMessage()).contains("batch 3 of the retention sweep");
      assertThat(erasedCounter(reader)).isEqualTo(2 * BATCH);
      assertThat(trail(crashing)).hasSize(2 * BATCH);
      assertThat(Fixtures.scalar(db, "SELECT count(*) FROM meterstore.subjects"))
          .isEqualTo(MAPPINGS - 2 * BATCH);

      SubjectRegistry healthy = new SubjectRegistry(database, null, sdk);
      SweepResult resumed =
          healthy.sweep(MSBG, "§ 60 Abs. 6 MsbG", "retention-job", NOW.plusSeconds(1), BATCH);

      assertThat(resumed.erased()).isEqualTo(MAPPINGS - 2 * BATCH);
      assertThat(resumed.complete()).isTrue();
      assertThat(erasedCounter(reader)).isEqualTo(MAPPINGS);
      assertThat(trail(healthy)).hasSize(MAPPINGS);
      assertThat(Fixtures.scalar(db, "SELECT count(*) FROM meterstore.subjects")).isZero();
    }
  }

  /** Every reference the trail records as erased by the sweep, checking none appears twice. */
  private static Set<SubjectRef> trail(SubjectRegistry registry) {
    Set<SubjectRef> refs = new HashSet<>();
    int total = 0;
    for (TrailEntry e :
        registry.erasures(Instant.EPOCH, NOW.plusSeconds(60), Trigger.RETENTION, 1000)) {
      refs.addAll(e.references());
      total += e.affected();
    }
    assertThat(total).isEqualTo(refs.size());
    return refs;
  }

  private static long erasedCounter(InMemoryMetricReader reader) {
    Attributes retention = Attributes.of(AttributeKey.stringKey("trigger"), "retention");
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("meterstore.subjects_erased")) {
        for (LongPointData p : m.getLongSumData().getPoints()) {
          if (p.getAttributes().equals(retention)) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }
}
