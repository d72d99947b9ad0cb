package org.meterstore.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.QueryEngine;

/**
 * The harness's only use of the query entry point ({@link QueryEngine}): each instance is one
 * freshly built engine, so a benchmark can measure what a new engine does first (planning a text it
 * has never seen) and what the same engine does again. Closing it closes the engine, and with it
 * whatever the engine owns (threads, caches); connections are closed by their users.
 */
final class QueryEntry implements AutoCloseable {
  private final QueryEngine engine;

  private QueryEntry(QueryEngine engine) {
    this.engine = engine;
  }

  /** A new engine over both tiers of {@code tables}; its clock stands still at {@code now}. */
  static QueryEntry open(Deployment d, List<TableDefinition> tables, Instant now) {
    return new QueryEntry(
        QueryEngine.builder()
            .tables(tables)
            .hot(d.hot, d.readers)
            .cold(d.cold)
            .clock(InstantSource.fixed(now))
            .build());
  }

  /** A read-only JDBC connection of this engine; the caller closes it. */
  Connection connection() throws SQLException {
    return engine.connection();
  }

  @Override
  public void close() {
    engine.close();
  }
}
