package org.meterstore.query.internal.state;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.table.CatalogRow;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.pin.CatalogEntry;

/**
 * Which cold tables' catalog pointers an execution reads in its hot round trip, and the pointer
 * each last read. A table qualifies when its Iceberg catalog is a JDBC catalog whose {@code
 * iceberg_tables} the hot tier's connections can read and whose row there holds the location the
 * catalog itself reports: the same string, a metadata file name with a random part, proves it is
 * the same catalog in the same database. Proved once per table; not proved after {@link
 * #MAX_PROOFS} tries (a commit between the two reads spoils one), the table keeps the catalog's own
 * round trip. Thread-safe.
 */
final class CatalogPointers {
  private static final int MAX_PROOFS = 3;

  /** A table's standing: its entry (null when it does not qualify) and its last pointer. */
  private record Standing(CatalogEntry entry, String pointer, int tries) {}

  private final Map<String, Standing> tables = new ConcurrentHashMap<>();

  /**
   * The entry to read with {@code def}'s hot state, with the pointer last read for it; empty when
   * the table does not qualify (yet).
   */
  Optional<Known> known(CatalogRuntime rt, TableDefinition def) {
    Standing s = tables.get(def.name());
    if (s == null || (s.entry() == null && s.tries() < MAX_PROOFS && s.pointer() == null)) {
      s = prove(rt, def, s == null ? 0 : s.tries());
    }
    return s.entry() == null || s.pointer() == null
        ? Optional.empty()
        : Optional.of(new Known(s.entry(), s.pointer()));
  }

  /** An entry with the pointer last read for it. */
  record Known(CatalogEntry entry, String pointer) {}

  /** Records {@code pointer} as read for {@code def}'s entry. */
  void read(TableDefinition def, CatalogEntry entry, String pointer) {
    tables.put(def.name(), new Standing(entry, pointer, 0));
  }

  /** Stops reading {@code def}'s pointer with its hot state (its row could not be read). */
  void drop(TableDefinition def) {
    tables.put(def.name(), new Standing(null, null, MAX_PROOFS));
  }

  private Standing prove(CatalogRuntime rt, TableDefinition def, int tries) {
    Standing result;
    try {
      ColdTable cold = rt.coldTable(def);
      Optional<CatalogRow> row = cold.catalogRow();
      if (row.isEmpty()) {
        result = new Standing(null, null, MAX_PROOFS);
      } else {
        CatalogEntry entry =
            new CatalogEntry(row.get().catalog(), row.get().namespace(), row.get().table());
        Optional<String> here = rt.hot().pins().catalogPointer(entry);
        String catalogs = here.isEmpty() ? null : cold.metadataLocation();
        result =
            here.isPresent() && here.get().equals(catalogs)
                ? new Standing(entry, catalogs, 0)
                : new Standing(null, null, here.isEmpty() ? MAX_PROOFS : tries + 1);
      }
    } catch (MeterStoreException e) {
      // unreachable now: try again at the next execution
      return new Standing(null, null, tries);
    }
    tables.put(def.name(), result);
    return result;
  }
}
