package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.TestDatabase;

/** Both tiers of one test deployment ({@link TwoTiers}) and the façade's catalog over them. */
final class CatalogFixture extends TwoTiers {
  CatalogFixture(TestDatabase db, Path warehouse, Duration ddlLockTimeout, OpenTelemetry otel) {
    super(db, warehouse, ddlLockTimeout, otel);
  }

  /** A catalog over these stores; closing it leaves them open. */
  MeterCatalog catalog(List<TableDefinition> tables, OpenTelemetry otel) {
    return MeterCatalog.of(hot, cold, tables, otel);
  }
}
