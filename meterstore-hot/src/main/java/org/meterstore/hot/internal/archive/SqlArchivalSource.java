package org.meterstore.hot.internal.archive;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntConsumer;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.archive.ArchivalSource;
import org.meterstore.hot.internal.partition.PartitionGrid;
import org.meterstore.hot.internal.schema.TableRegistry;
import org.meterstore.hot.internal.sql.Database;

/** The {@link ArchivalSource} of one store's database. Thread-safe. */
public final class SqlArchivalSource implements ArchivalSource {
  private static final int MAX_HOLDER_LENGTH = 200;

  private final Database db;

  /** The source of {@code db}'s schema. */
  public SqlArchivalSource(Database db) {
    this.db = db;
  }

  @Override
  public Optional<ArchivalLease> tryLease(TableDefinition table, String holder, Instant now) {
    Objects.requireNonNull(table, "table");
    if (holder == null || holder.isBlank() || holder.length() > MAX_HOLDER_LENGTH) {
      throw MeterStoreException.invalid("lease holder", holder, "1 to 200 characters");
    }
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
    recordedArchivalStep(table);
    return SessionLease.tryAcquire(db.dataSource(), db.schema(), table.name(), holder, now);
  }

  @Override
  public Iterable<Object[]> rows(
      TableDefinition table, String partition, int chunkRows, IntConsumer beforeChunk) {
    if (chunkRows < 1) {
      throw MeterStoreException.invalid("chunk rows", chunkRows, "at least 1");
    }
    requirePartition(table, partition);
    return new KeysetRows(db, table, partition, chunkRows, Objects.requireNonNull(beforeChunk));
  }

  @Override
  public ContentDigest digest(TableDefinition table, String partition) {
    requirePartition(table, partition);
    String sql =
        "SELECT count(*), coalesce(sum("
            + SqlIdentifiers.quote(StandardColumn.VALUE.columnName())
            + "), 0) FROM "
            + db.qualified(partition);
    return db.transaction(
        () -> "compute the digest of partition " + partition + " of table " + table.name(),
        c -> {
          try (Statement s = c.createStatement();
              ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            BigDecimal sum = rs.getBigDecimal(2);
            return new ContentDigest(rs.getLong(1), sum);
          }
        });
  }

  @Override
  public Duration recordedArchivalStep(TableDefinition table) {
    return db.transaction(
            () -> "read the archival step of table " + table.name(),
            c -> new TableRegistry(c, db.schema()).find(table.name()))
        .map(TableRegistry.Entry::archivalStep)
        .orElseThrow(
            () ->
                MeterStoreException.tableMissing(
                    table.name(), "the hot tier's registry (schema " + db.schema() + ")"));
  }

  private void requirePartition(TableDefinition table, String partition) {
    if (partition == null || PartitionGrid.of(table).lowerBound(partition).isEmpty()) {
      throw MeterStoreException.invalid(
          "partition", partition, "one of table " + table.name() + "'s partition names");
    }
    boolean exists =
        db.transaction(
            () -> "find partition " + partition + " of table " + table.name(),
            c -> exists(c, db.qualified(partition)));
    if (!exists) {
      throw new MeterStoreException(
          ErrorKind.INVALID_INPUT,
          "Cannot read partition "
              + partition
              + " of table "
              + table.name()
              + ": it does not exist");
    }
  }

  private static boolean exists(Connection c, String qualified) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      s.setString(1, qualified);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }
}
