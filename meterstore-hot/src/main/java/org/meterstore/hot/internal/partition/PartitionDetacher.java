package org.meterstore.hot.internal.partition;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detaches and drops partitions under {@code ddl_lock_timeout}. A plain detach is one transaction
 * and leaves nothing behind when it times out. {@code DETACH … CONCURRENTLY} refuses a transaction
 * block, so it runs in autocommit with a session {@code lock_timeout} that is reset afterwards;
 * when it is interrupted the partition stays half detached, and the next concurrent-mode call
 * finishes it with {@code FINALIZE} (docs/dependencies.md P5).
 */
final class PartitionDetacher {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionDetacher.class);

  private final Database db;
  private final PartitionCatalog catalog;

  PartitionDetacher(Database db, PartitionCatalog catalog) {
    this.db = db;
    this.catalog = catalog;
  }

  PartitionInfo detach(TableDefinition table, String name, DetachMode mode) {
    String action = "detach partition " + name + " of table " + table.name();
    PartitionInfo current = current(table, name, action);
    if (current.state() == PartitionState.DETACHED) {
      return current;
    }
    if (mode == DetachMode.PLAIN) {
      if (current.state() == PartitionState.DETACH_PENDING) {
        throw new MeterStoreException(
            ErrorKind.INVALID_INPUT,
            "Cannot "
                + action
                + ": an interrupted DETACH CONCURRENTLY is pending; detach it in CONCURRENTLY"
                + " mode, which finishes it with FINALIZE");
      }
      db.ddl(() -> action, c -> execute(c, detachSql(table, name, "")));
    } else {
      detachConcurrently(table, current, action);
    }
    LOG.info("Detached partition {}.{} ({})", db.schema(), name, mode);
    return current(table, name, action);
  }

  boolean drop(TableDefinition table, String name) {
    String action = "drop partition " + name + " of table " + table.name();
    return db.ddl(
        () -> action,
        c -> {
          Optional<PartitionInfo> found = catalog.find(c, table, name);
          if (found.isEmpty()) {
            return false;
          }
          if (found.get().state() != PartitionState.DETACHED) {
            throw new MeterStoreException(
                ErrorKind.INVALID_INPUT,
                "Cannot " + action + ": it is " + found.get().state() + "; detach it first");
          }
          execute(c, "DROP TABLE " + db.qualified(name));
          LOG.info("Dropped detached partition {}.{}", db.schema(), name);
          return true;
        });
  }

  private void detachConcurrently(TableDefinition table, PartitionInfo current, String action) {
    boolean pending = current.state() == PartitionState.DETACH_PENDING;
    String sql = detachSql(table, current.name(), pending ? " FINALIZE" : " CONCURRENTLY");
    try {
      db.autocommit(
          () -> action,
          c -> {
            execute(c, "SET lock_timeout = '" + db.lockTimeoutSetting() + "'");
            try {
              return execute(c, sql);
            } finally {
              execute(c, "RESET lock_timeout");
            }
          });
    } catch (MeterStoreException e) {
      if (e.kind() == ErrorKind.LOCK_TIMEOUT
          && current(table, current.name(), action).state() == PartitionState.DETACH_PENDING) {
        throw new MeterStoreException(
            ErrorKind.LOCK_TIMEOUT,
            "Cannot "
                + action
                + ": a conflicting lock was held longer than ddl_lock_timeout; the partition is"
                + " left DETACH_PENDING (SQL on the parent no longer sees its rows, MeterStore's"
                + " queries read it by name; writes into its window are refused) and the next"
                + " detach in CONCURRENTLY mode finishes it",
            e);
      }
      throw e;
    }
  }

  private PartitionInfo current(TableDefinition table, String name, String action) {
    return db.transaction(
            () -> action,
            c -> {
              catalog.requireParent(c, table);
              return catalog.find(c, table, name);
            })
        .orElseThrow(
            () ->
                new MeterStoreException(
                    ErrorKind.INVALID_INPUT, "Cannot " + action + ": no such partition exists"));
  }

  private String detachSql(TableDefinition table, String name, String suffix) {
    return "ALTER TABLE "
        + db.qualified(table.name())
        + " DETACH PARTITION "
        + db.qualified(name)
        + suffix;
  }

  private static Void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
    return null;
  }
}
