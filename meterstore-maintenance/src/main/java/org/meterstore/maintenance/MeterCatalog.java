package org.meterstore.maintenance;

import io.opentelemetry.api.OpenTelemetry;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.hot.HotStore;
import org.meterstore.maintenance.archival.ArchivalMetrics;

/**
 * A deployment's tables over one hot store and one cold store, maintained from one schedule (DESIGN
 * § 6): {@link #maintenance()} configures the loop that archives, expires snapshots, checks the
 * invariant and runs the retention sweep. Each table keeps its own watermark and lease; only the
 * scheduling is shared.
 *
 * <p>The catalog starts nothing: no thread exists before {@link MaintenanceBuilder#spawn()}. It
 * does not own the stores (close them yourself, after closing any spawned handle). Immutable and
 * thread-safe. This concrete class is the catalog until the api module grows a {@code MeterCatalog}
 * interface for query sessions too; its maintenance surface will stay.
 */
public final class MeterCatalog {
  private final HotStore hot;
  private final ColdStore cold;
  private final List<TableDefinition> tables;
  private final ArchivalMetrics metrics;

  private MeterCatalog(
      HotStore hot, ColdStore cold, List<TableDefinition> tables, ArchivalMetrics metrics) {
    this.hot = hot;
    this.cold = cold;
    this.tables = tables;
    this.metrics = metrics;
  }

  /**
   * A catalog of {@code tables}, each created in both tiers ({@link HotStore#createTables}; the
   * cold table is created on first use).
   *
   * @param tables visited in this order by every cycle; names unique, at least one
   * @param otel where the archival and tiering metrics go; {@link OpenTelemetry#noop()} for none
   * @throws MeterStoreException {@code INVALID_INPUT} for no tables or a repeated name
   */
  public static MeterCatalog of(
      HotStore hot, ColdStore cold, List<TableDefinition> tables, OpenTelemetry otel) {
    Objects.requireNonNull(hot, "hot");
    Objects.requireNonNull(cold, "cold");
    Objects.requireNonNull(otel, "otel; use OpenTelemetry.noop()");
    List<TableDefinition> copy = List.copyOf(tables);
    Set<String> names = new HashSet<>();
    if (copy.isEmpty()) {
      throw MeterStoreException.invalid("tables", "[]", "at least one table");
    }
    for (TableDefinition t : copy) {
      if (!names.add(t.name())) {
        throw MeterStoreException.invalid("tables", t.name(), "each table name once");
      }
    }
    return new MeterCatalog(hot, cold, copy, new ArchivalMetrics(otel));
  }

  /** The tables, in the order a cycle visits them. */
  public List<TableDefinition> tables() {
    return tables;
  }

  /** The hot tier. */
  public HotStore hot() {
    return hot;
  }

  /** The cold tier. */
  public ColdStore cold() {
    return cold;
  }

  /** A new builder for this catalog's maintenance loop, with the defaults listed there. */
  public MaintenanceBuilder maintenance() {
    return new MaintenanceBuilder(this);
  }

  ArchivalMetrics metrics() {
    return metrics;
  }
}
