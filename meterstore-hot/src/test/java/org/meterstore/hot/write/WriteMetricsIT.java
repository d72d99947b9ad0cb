package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The writer's counters, read back through an in-memory metric reader. */
@ExtendWith(PostgresExtension.class)
class WriteMetricsIT {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Attributes LASTGANG =
      Attributes.of(AttributeKey.stringKey("table"), "lastgang");

  private static InMemoryMetricReader reader;
  private static OpenTelemetrySdk sdk;
  private static HotStore store;

  @BeforeAll
  static void open(TestDatabase db) {
    reader = InMemoryMetricReader.create();
    sdk =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build();
    store = HotStore.open(db.dataSource(), HotSettings.DEFAULTS, sdk);
    store.createTables(List.of(TABLE), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
    sdk.close();
  }

  @Test
  void countsStoredAndDeduplicatedRowsPerTableAndNothingForARefusedBatch() {
    store.write(TABLE, Fixtures.day(1, DAY, "20260303000000"), NOW);
    store.write(TABLE, Fixtures.day(1, DAY, "20260303000000"), NOW);
    store.write(TABLE, Fixtures.day(1, DAY, "20260304000000").subList(0, 10), NOW);
    // A refused batch (a value restated under version 20260303000000) counts nothing.
    catchThrowableOfType(
        MeterStoreException.class,
        () ->
            store.write(
                TABLE,
                List.of(
                    Fixtures.day(1, DAY, "20260303000000").get(0).toBuilder().value("9").build()),
                NOW));

    Collection<MetricData> metrics = reader.collectAllMetrics();
    assertThat(sum(metrics, "meterstore.write.rows")).isEqualTo(106);
    assertThat(sum(metrics, "meterstore.write.rows_deduplicated")).isEqualTo(96);
    assertThat(metrics)
        .filteredOn(m -> m.getName().startsWith("meterstore.write."))
        .allSatisfy(m -> assertThat(m.getUnit()).isEqualTo("{row}"));
  }

  private static long sum(Collection<MetricData> metrics, String name) {
    return metrics.stream()
        .filter(m -> m.getName().equals(name))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(p -> p.getAttributes().equals(LASTGANG))
        .mapToLong(LongPointData::getValue)
        .sum();
  }
}
