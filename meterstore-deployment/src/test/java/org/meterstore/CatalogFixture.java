package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/** Both tiers of one test deployment ({@link TwoTiers}) and the façade's catalog over them. */
final class CatalogFixture extends TwoTiers {
  CatalogFixture(TestDatabase db, Path warehouse, Duration ddlLockTimeout, OpenTelemetry otel) {
    super(db, warehouse, ddlLockTimeout, otel);
  }

  /**
   * Creates {@code name} (settlement lag {@code lag}, no reader grace) at {@code written} and
   * writes two meters' readings for {@code days} days from 2026-03-01 into it.
   */
  TableDefinition withDaysOfReadings(String name, int days, Duration lag, Instant written) {
    TableDefinition table = table(name, lag, Duration.ZERO);
    create(List.of(table), written);
    write(
        table,
        new Workload(2, LocalDate.of(2026, 3, 1), days, 0, 0.02, 0.0, days),
        new ReferenceModel(table),
        written);
    return table;
  }

  /** A catalog over these stores; closing it leaves them open. */
  MeterCatalog catalog(List<TableDefinition> tables, OpenTelemetry otel) {
    return MeterCatalog.of(hot, cold, tables, otel);
  }
}
