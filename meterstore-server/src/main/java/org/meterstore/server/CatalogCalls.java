package org.meterstore.server;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;

/**
 * The Flight SQL catalog calls (schemas, tables, table types, catalogs), answered from the metadata
 * of a MeterStore connection, showing a user only the tables it may read.
 */
final class CatalogCalls {
  /** Opens the MeterStore connection of a call. */
  @FunctionalInterface
  interface Connections {
    Connection open(CallContext context) throws SQLException;
  }

  private final BufferAllocator allocator;
  private final Connections connections;
  private final Grants grants;

  CatalogCalls(BufferAllocator allocator, Connections connections, Grants grants) {
    this.allocator = allocator;
    this.connections = connections;
    this.grants = grants;
  }

  /** No catalogs: MeterStore's schemas stand alone. */
  void catalogs(ServerStreamListener listener) {
    try (VectorSchemaRoot root =
        VectorSchemaRoot.create(FlightSqlProducer.Schemas.GET_CATALOGS_SCHEMA, allocator)) {
      send(root, 0, listener);
    }
  }

  /** The schemas matching the command's pattern. */
  void schemas(
      FlightSql.CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
    String pattern = command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null;
    try (Connection c = connections.open(context);
        ResultSet rs = c.getMetaData().getSchemas(null, pattern);
        VectorSchemaRoot root =
            VectorSchemaRoot.create(FlightSqlProducer.Schemas.GET_SCHEMAS_SCHEMA, allocator)) {
      VarCharVector schemas = (VarCharVector) root.getVector("db_schema_name");
      int row = 0;
      while (rs.next()) {
        root.getVector("catalog_name").setNull(row);
        schemas.setSafe(row, new Text(rs.getString("TABLE_SCHEM")));
        row++;
      }
      send(root, row, listener);
    } catch (SQLException | RuntimeException e) {
      listener.error(FlightStatuses.of(e, "list schemas"));
    }
  }

  /** The tables the user may read that match the command, with their Arrow schemas if asked. */
  void tables(
      FlightSql.CommandGetTables command, CallContext context, ServerStreamListener listener) {
    String user = context.peerIdentity();
    String schemaPattern =
        command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null;
    String tablePattern =
        command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : null;
    String[] types =
        command.getTableTypesCount() == 0
            ? null
            : command.getTableTypesList().toArray(new String[0]);
    boolean withSchema = command.getIncludeSchema();
    Schema shape =
        withSchema
            ? FlightSqlProducer.Schemas.GET_TABLES_SCHEMA
            : FlightSqlProducer.Schemas.GET_TABLES_SCHEMA_NO_SCHEMA;
    try (Connection c = connections.open(context);
        VectorSchemaRoot root = VectorSchemaRoot.create(shape, allocator)) {
      DatabaseMetaData md = c.getMetaData();
      int row = 0;
      try (ResultSet rs = md.getTables(null, schemaPattern, tablePattern, types)) {
        while (rs.next()) {
          String schema = rs.getString("TABLE_SCHEM");
          String table = rs.getString("TABLE_NAME");
          if (!grants.mayRead(user, schema, table)) {
            continue;
          }
          root.getVector("catalog_name").setNull(row);
          ((VarCharVector) root.getVector("db_schema_name")).setSafe(row, new Text(schema));
          ((VarCharVector) root.getVector("table_name")).setSafe(row, new Text(table));
          ((VarCharVector) root.getVector("table_type"))
              .setSafe(row, new Text(rs.getString("TABLE_TYPE")));
          if (withSchema) {
            ((VarBinaryVector) root.getVector("table_schema"))
                .setSafe(row, ArrowResults.serialize(tableSchema(c, schema, table)).toByteArray());
          }
          row++;
        }
      }
      send(root, row, listener);
    } catch (SQLException | RuntimeException e) {
      listener.error(FlightStatuses.of(e, "list tables"));
    }
  }

  /** The table types. */
  void tableTypes(CallContext context, ServerStreamListener listener) {
    try (Connection c = connections.open(context);
        ResultSet rs = c.getMetaData().getTableTypes();
        VectorSchemaRoot root =
            VectorSchemaRoot.create(FlightSqlProducer.Schemas.GET_TABLE_TYPES_SCHEMA, allocator)) {
      VarCharVector types = (VarCharVector) root.getVector("table_type");
      int row = 0;
      while (rs.next()) {
        types.setSafe(row++, new Text(rs.getString("TABLE_TYPE")));
      }
      send(root, row, listener);
    } catch (SQLException | RuntimeException e) {
      listener.error(FlightStatuses.of(e, "list table types"));
    }
  }

  /** {@code root}'s first {@code rows} rows as the whole answer of a catalog call. */
  private static void send(VectorSchemaRoot root, int rows, ServerStreamListener listener) {
    root.setRowCount(rows);
    listener.start(root);
    listener.putNext();
    listener.completed();
  }

  private Schema tableSchema(Connection c, String schema, String table) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT * FROM " + quote(schema) + "." + quote(table) + " WHERE 1 = 0")) {
      return ArrowResults.schema(ps.getMetaData(), allocator);
    }
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
