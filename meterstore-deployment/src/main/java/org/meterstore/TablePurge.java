package org.meterstore;

import java.util.List;
import org.meterstore.api.MeterStoreException;
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

  private final MeterCatalog catalog;

  TablePurge(MeterCatalog catalog) {
    this.catalog = catalog;
  }

  PurgeResult purge(String name, String confirmName) {
    if (name == null || !name.equals(confirmName)) {
      throw MeterStoreException.invalid(
          "purge confirmation",
          confirmName,
          "must repeat the table name '" + name + "' exactly; nothing was purged");
    }
    catalog.require(name);
    LOG.warn("Purging table {}: deleting every reading of it in both tiers", name);
    List<String> hot = catalog.hot().purgeTable(name);
    boolean cold = catalog.cold().purgeTable(name);
    LOG.warn(
        "Purged table {}: {} PostgreSQL relations dropped {}, Iceberg table {}",
        name,
        hot.size(),
        hot,
        cold ? "dropped with its files" : "absent");
    return new PurgeResult(name, hot, cold);
  }
}
