package org.meterstore.query;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.testing.TestDatabase;

/**
 * Both tiers on a test database and a temporary warehouse, a catalog over them, and archival done
 * by hand with the tiers' primitives (detach, archive, drop), as the maintenance module will.
 */
final class Deployment implements AutoCloseable {
  final TestDatabase db;
  final DataSource dataSource;
  final HotStore hot;
  final ColdStore cold;
  final MutableClock clock;
  final List<TableDefinition> tables;
  final QueryEngine catalog;

  Deployment(TestDatabase db, Path warehouse, Instant now, List<TableDefinition> tables) {
    this(db, warehouse, now, tables, OpenTelemetry.noop());
  }

  Deployment(
      TestDatabase db,
      Path warehouse,
      Instant now,
      List<TableDefinition> tables,
      OpenTelemetry otel) {
    this.db = db;
    this.dataSource = db.dataSource();
    this.hot = HotStore.open(dataSource, HotSettings.DEFAULTS, OpenTelemetry.noop());
    this.cold =
        ColdStore.open(
            ColdConfig.jdbc(db.jdbcUrl(), db.user(), db.password(), warehouse.toUri().toString()));
    this.clock = new MutableClock(now);
    this.tables = List.copyOf(tables);
    hot.createTables(tables, now);
    tables.forEach(cold::table);
    this.catalog =
        QueryEngine.builder()
            .tables(tables)
            .hot(hot, dataSource)
            .cold(cold)
            .clock(clock)
            .openTelemetry(otel)
            .build();
  }

  ColdTable coldTable(TableDefinition def) {
    return cold.table(def);
  }

  /**
   * Archives window {@code [from, to)}: detach its partition, archive its rows, optionally drop.
   */
  void archive(TableDefinition def, Instant from, Instant to, boolean drop) {
    List<Object[]> rows = new ArrayList<>();
    List<PartitionInfo> windows =
        hot.partitions().list(def).stream()
            .filter(p -> !p.lowerBound().isBefore(from) && !p.upperBound().isAfter(to))
            .toList();
    for (PartitionInfo p : windows) {
      rows.addAll(rowsOf(def, p.name()));
      hot.partitions().detach(def, p.name(), DetachMode.PLAIN);
    }
    coldTable(def).archive(new ArchiveRequest(from, to, clock.instant(), 1), rows);
    if (drop) {
      windows.forEach(p -> hot.partitions().drop(def, p.name()));
    }
  }

  /** Every row of one hot partition table, in the api's row format. */
  List<Object[]> rowsOf(TableDefinition def, String partition) {
    List<ColumnSpec> columns = def.columns();
    List<Object[]> rows = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT * FROM \"" + hot.schema() + "\".\"" + partition + "\"");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
          ColumnSpec col = columns.get(i);
          switch (col.type()) {
            case TIMESTAMPTZ:
              OffsetDateTime t = rs.getObject(col.name(), OffsetDateTime.class);
              row[i] = t == null ? null : t.toInstant();
              break;
            case DATE:
              row[i] = rs.getObject(col.name(), LocalDate.class);
              break;
            case DECIMAL_18_6:
            case DECIMAL_20_0:
              BigDecimal d = rs.getBigDecimal(col.name());
              row[i] = d;
              break;
            default:
              row[i] = rs.getString(col.name());
          }
        }
        rows.add(row);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }

  @Override
  public void close() {
    catalog.close();
    cold.close();
    hot.close();
  }
}
