package org.meterstore;

import java.util.List;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.ColdStore;
import org.meterstore.hot.HotStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deliberate destruction of one table (DESIGN § 1 principle 5: the only operation that deletes
 * readings). The confirmation is checked before anything is touched; the hot tier goes first in one
 * transaction (which also locks out archival of the table), then the Iceberg table with its files.
 * Each step is idempotent, so a purge interrupted between them is finished by running it again.
 */
final class TablePurge {
  private static final Logger LOG = LoggerFactory.getLogger(TablePurge.class);

  private final HotStore hot;
  private final ColdStore cold;

  TablePurge(HotStore hot, ColdStore cold) {
    this.hot = hot;
    this.cold = cold;
  }

  PurgeResult purge(String name, String confirmName) {
    if (name == null || !name.equals(confirmName)) {
      throw MeterStoreException.invalid(
          "purge confirmation",
          confirmName,
          "must repeat the table name '" + name + "' exactly; nothing was purged");
    }
    LOG.warn("Purging table {}: deleting every reading of it in both tiers", name);
    List<String> hotDropped = hot.purgeTable(name);
    boolean coldDropped = cold.purgeTable(name);
    LOG.warn(
        "Purged table {}: {} PostgreSQL relations dropped {}, Iceberg table {}",
        name,
        hotDropped.size(),
        hotDropped,
        coldDropped ? "dropped with its files" : "absent");
    return new PurgeResult(name, hotDropped, coldDropped);
  }
}
