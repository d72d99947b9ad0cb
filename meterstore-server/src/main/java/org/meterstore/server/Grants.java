package org.meterstore.server;

import java.util.Set;
import org.apache.arrow.flight.CallStatus;
import org.meterstore.MeterCatalog;

/** Which tables each user may read ({@code [serve.tables]}); {@code system.*} is open to all. */
final class Grants {
  private final MeterCatalog catalog;
  private final ServerSettings settings;

  Grants(MeterCatalog catalog, ServerSettings settings) {
    this.catalog = catalog;
    this.settings = settings;
  }

  /** Whether {@code user} may read {@code schema.table} (tables of the MeterStore schema only). */
  boolean mayRead(String user, String schema, String table) {
    Set<String> allowed = settings.tables().get(user);
    return allowed == null || "system".equals(schema) || allowed.contains(table);
  }

  /**
   * Refuses a statement naming a table {@code user} may not read. The names are MeterStore's
   * declared tables, matched as words of the statement: conservative (a column or literal with a
   * table's name also refuses), never permissive.
   */
  void requireReadable(String user, String sql) {
    Set<String> allowed = settings.tables().get(user);
    if (allowed == null) {
      return;
    }
    String lower = sql.toLowerCase(java.util.Locale.ROOT);
    for (org.meterstore.api.table.TableDefinition t : catalog.tables()) {
      if (!allowed.contains(t.name())
          && java.util.regex.Pattern.compile(
                  "\\b" + java.util.regex.Pattern.quote(t.name()) + "(_versions)?\\b")
              .matcher(lower)
              .find()) {
        throw CallStatus.UNAUTHORIZED
            .withDescription("user " + user + " may not read table " + t.name())
            .toRuntimeException();
      }
    }
  }
}
