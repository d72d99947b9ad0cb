package org.meterstore.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.QueryEngine;

/** The harness's only use of the query entry point ({@link QueryEngine}). */
final class QueryEntry {
  private QueryEntry() {}

  /** A read-only JDBC connection over both tiers; the clock stands still at {@code now}. */
  static Connection connect(Deployment d, List<TableDefinition> tables, Instant now)
      throws SQLException {
    return QueryEngine.builder()
        .tables(tables)
        .hot(d.hot, d.readers)
        .cold(d.cold)
        .clock(InstantSource.fixed(now))
        .build()
        .connection();
  }
}
