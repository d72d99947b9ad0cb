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
 * The tables one maintenance loop keeps healthy, over one hot and one cold store, with the archival
 * and tiering instruments they report to. Make one per deployment (the instruments register their
 * gauges once) and take a {@link #builder()} per loop or per cycle.
 *
 * <p>Holds no resource of its own: the stores stay the caller's. Thread-safe.
 */
public final class Maintenance {
  private final HotStore hot;
  private final ColdStore cold;
  private final List<TableDefinition> tables;
  private final ArchivalMetrics metrics;

  private Maintenance(
      HotStore hot, ColdStore cold, List<TableDefinition> tables, ArchivalMetrics metrics) {
    this.hot = hot;
    this.cold = cold;
    this.tables = tables;
    this.metrics = metrics;
  }

  /**
   * The maintenance of {@code tables} over {@code hot} and {@code cold}.
   *
   * @param tables visited in this order by every cycle; names unique, at least one
   * @param otel where the archival and tiering metrics go; {@link OpenTelemetry#noop()} for none
   * @throws MeterStoreException {@code INVALID_INPUT} for no tables or a repeated name
   */
  public static Maintenance of(
      HotStore hot, ColdStore cold, List<TableDefinition> tables, OpenTelemetry otel) {
    Objects.requireNonNull(hot, "hot");
    Objects.requireNonNull(cold, "cold");
    Objects.requireNonNull(otel, "otel; use OpenTelemetry.noop()");
    List<TableDefinition> copy = List.copyOf(tables);
    if (copy.isEmpty()) {
      throw MeterStoreException.invalid("tables", "[]", "at least one table");
    }
    Set<String> names = new HashSet<>();
    for (TableDefinition t : copy) {
      if (!names.add(t.name())) {
        throw MeterStoreException.invalid("tables", t.name(), "each table name once");
      }
    }
    return new Maintenance(hot, cold, copy, new ArchivalMetrics(otel));
  }

  /** A new builder of a loop over these tables, with the defaults listed there. */
  public MaintenanceBuilder builder() {
    return new MaintenanceBuilder(this);
  }

  /** The tables, in the order a cycle visits them. */
  public List<TableDefinition> tables() {
    return tables;
  }

  HotStore hot() {
    return hot;
  }

  ColdStore cold() {
    return cold;
  }

  ArchivalMetrics metrics() {
    return metrics;
  }
}
