package org.meterstore;

import java.util.Objects;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;

/**
 * The expert door: the tier stores behind a {@link MeterCatalog}, for white-box tests and
 * out-of-band tools that need what no entry point offers (a table's snapshot list, the raw Iceberg
 * table, the hot partitions). Not part of the supported API: nothing here is stable, and writes
 * made through a store bypass the routing by W, the catalog's checks and its metrics. Applications
 * use the catalog's entry points ({@link MeterCatalog#table}, {@link MeterCatalog#subjects}, {@link
 * MeterCatalog#maintenance}, {@link MeterCatalog#connection()}); the {@code meterstore} command and
 * the examples never call this class (an architecture rule in {@code
 * meterstore-architecture-tests}).
 *
 * <p>What a capability needs from here becomes a method of an entry point, not a reason to use it.
 */
public final class Tiers {
  private Tiers() {}

  /** The hot store {@code catalog} writes to; the catalog owns it. */
  public static HotStore hot(MeterCatalog catalog) {
    return Objects.requireNonNull(catalog, "catalog").hotStore();
  }

  /** The cold store of {@code catalog}; the catalog owns it. */
  public static ColdStore cold(MeterCatalog catalog) {
    return Objects.requireNonNull(catalog, "catalog").coldStore();
  }

  /**
   * The cold table of {@code catalog}'s declared table {@code name}, opened once per catalog.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared; {@code
   *     CONFIG} when the table does not exist in the cold tier
   */
  public static ColdTable coldTable(MeterCatalog catalog, String name) {
    return Objects.requireNonNull(catalog, "catalog").coldTable(name);
  }
}
