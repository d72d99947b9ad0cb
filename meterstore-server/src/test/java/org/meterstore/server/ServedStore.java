package org.meterstore.server;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.meterstore.MeterCatalog;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * The store the server ITs serve: table {@value #TABLE}, four market locations over eight days, one
 * maintenance cycle so that the readings are in both tiers.
 */
final class ServedStore implements AutoCloseable {
  static final String TABLE = "lastgang";

  final TwoTiers tiers;
  final MeterCatalog catalog;

  private ServedStore(TwoTiers tiers, MeterCatalog catalog) {
    this.tiers = tiers;
    this.catalog = catalog;
  }

  static ServedStore build(TestDatabase db, Path warehouse) {
    TableDefinition def = TwoTiers.table(TABLE, Duration.ofDays(2), Duration.ofHours(1));
    TwoTiers tiers = new TwoTiers(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
    MeterCatalog catalog =
        MeterCatalog.of(tiers.hot, tiers.cold, List.of(def), OpenTelemetry.noop());
    Instant now = Instant.parse("2026-03-10T12:00:00Z");
    catalog.createTables(Instant.parse("2026-03-01T00:00:00Z"));
    for (Workload.Delivery d :
        new Workload(4, LocalDate.of(2026, 3, 2), 8, 2, 0.05, 0.0, 11).deliveries()) {
      catalog.table(TABLE).append(d.readings(), now);
    }
    catalog.maintenance().runOnce(now);
    return new ServedStore(tiers, catalog);
  }

  @Override
  public void close() {
    catalog.close();
    tiers.close();
  }
}
