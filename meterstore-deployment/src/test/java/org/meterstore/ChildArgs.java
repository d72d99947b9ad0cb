package org.meterstore;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.testing.TestDatabase;

/**
 * The arguments of a child ({@link MaintenanceChild}, {@link AppendChild}, {@link QueryChild}),
 * built fluently by the parent test.
 */
final class ChildArgs {
  private final List<String> args = new ArrayList<>();

  ChildArgs(TestDatabase db, Path warehouse, String tables, Duration lag, Duration grace) {
    put("url", db.jdbcUrl());
    put("user", db.user());
    put("password", db.password());
    put("warehouse", warehouse.toString());
    put("tables", tables);
    put("lagHours", Long.toString(lag.toHours()));
    put("graceMinutes", Long.toString(grace.toMinutes()));
    put("chunkRows", "50");
  }

  ChildArgs cycles(Instant start, Duration step, int cycles) {
    put("start", start.toString());
    put("stepMinutes", Long.toString(step.toMinutes()));
    return put("cycles", Integer.toString(cycles));
  }

  ChildArgs put(String key, String value) {
    args.add(key + "=" + value);
    return this;
  }

  List<String> list() {
    return List.copyOf(args);
  }
}
