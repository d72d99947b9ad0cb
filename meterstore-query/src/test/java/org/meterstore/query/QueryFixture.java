package org.meterstore.query;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.HotSettings;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.TestDatabase;

/**
 * Both tiers ({@link TwoTiers}: archival through the real archiver) with {@code tables} created in
 * them, and a {@link QueryEngine} over them whose clock the test moves by hand. The archiver runs
 * at its own {@code now} ({@code to + settlement_lag}), not at {@link #clock}'s.
 */
final class QueryFixture extends TwoTiers {
  final MutableClock clock;
  final List<TableDefinition> tables;
  final QueryEngine catalog;

  QueryFixture(TestDatabase db, Path warehouse, Instant now, List<TableDefinition> tables) {
    this(db, warehouse, now, tables, OpenTelemetry.noop());
  }

  /** As above, the engine recording into {@code otel} (the tiers record nothing). */
  QueryFixture(
      TestDatabase db,
      Path warehouse,
      Instant now,
      List<TableDefinition> tables,
      OpenTelemetry otel) {
    this(db, warehouse, now, tables, otel, b -> b);
  }

  /** As above, the engine's builder adjusted by {@code engine} before it builds. */
  QueryFixture(
      TestDatabase db,
      Path warehouse,
      Instant now,
      List<TableDefinition> tables,
      OpenTelemetry otel,
      java.util.function.UnaryOperator<QueryEngine.Builder> engine) {
    super(db, warehouse, HotSettings.DEFAULT_DDL_LOCK_TIMEOUT, OpenTelemetry.noop());
    this.clock = new MutableClock(now);
    this.tables = List.copyOf(tables);
    create(tables, now);
    this.catalog =
        engine
            .apply(
                QueryEngine.builder()
                    .tables(tables)
                    .hot(hot, db.dataSource())
                    .cold(cold)
                    .clock(clock)
                    .openTelemetry(otel))
            .build();
  }

  @Override
  public void close() {
    catalog.close();
    super.close();
  }
}
