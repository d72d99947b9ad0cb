package org.meterstore.server;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.BasicFlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.meterstore.MeterCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Flight SQL producer in front of MeterStore's Calcite engine: statements and prepared
 * statements run on a MeterStore JDBC connection (read-only) and stream as Arrow batches ({@link
 * ArrowResults}); the catalog RPCs answer from that connection's metadata. Every update RPC is
 * refused: the server is read-only. Errors reach the client as a Flight status with MeterStore's
 * message, never a stack trace.
 */
final class SqlProducer extends BasicFlightSqlProducer {
  private static final Logger LOG = LoggerFactory.getLogger(SqlProducer.class);

  /** Longest SQL text accepted. */
  static final int MAX_SQL_CHARS = 1 << 20;

  private final MeterCatalog catalog;
  private final BufferAllocator allocator;
  private final ServerSettings settings;
  private final Statements statements;
  private final Sessions sessions;
  private final SqlInfoBuilder sqlInfo;
  private final HeldStatements held;
  private final ServerMetrics metrics;
  private final Grants grants;
  private final CatalogCalls catalogCalls;

  SqlProducer(
      MeterCatalog catalog,
      BufferAllocator allocator,
      ServerSettings settings,
      int maxRunning,
      java.time.Duration admissionWait,
      ServerMetrics metrics) {
    this.metrics = metrics;
    this.catalog = catalog;
    this.grants = new Grants(catalog, settings);
    this.catalogCalls = new CatalogCalls(allocator, this::connection, grants);
    this.allocator = allocator;
    this.settings = settings;
    this.sessions = new Sessions(catalog);
    this.held = new HeldStatements(allocator);
    this.statements =
        new Statements(
            this::connection, allocator, settings, grants, metrics, maxRunning, admissionWait);
    this.sqlInfo = ServerInfo.of(catalog);
  }

  // ---- statements

  @Override
  public FlightInfo getFlightInfoStatement(
      FlightSql.CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    String sql = checkedSql(command.getQuery());
    Schema schema = describe(sql, context);
    FlightSql.TicketStatementQuery ticket =
        FlightSql.TicketStatementQuery.newBuilder()
            .setStatementHandle(ByteString.copyFrom(sql, StandardCharsets.UTF_8))
            .build();
    return info(ticket, descriptor, schema);
  }

  @Override
  public SchemaResult getSchemaStatement(
      FlightSql.CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return new SchemaResult(describe(checkedSql(command.getQuery()), context));
  }

  @Override
  public void getStreamStatement(
      FlightSql.TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
    String sql = checkedSql(ticket.getStatementHandle().toStringUtf8());
    statements.run(sql, List.of(), context, listener);
  }

  // ---- prepared statements

  @Override
  public void createPreparedStatement(
      FlightSql.ActionCreatePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    try {
      String sql = checkedSql(request.getQuery());
      String user = context.peerIdentity();
      grants.requireReadable(user, sql);
      Properties properties = properties(context);
      ByteString handle = held.create(sql, user, properties, open(properties));
      HeldStatements.Held h = held.owned(handle, user);
      Schema dataset = h.dataset;
      Schema parameters = h.parameterSchema;
      FlightSql.ActionCreatePreparedStatementResult result =
          FlightSql.ActionCreatePreparedStatementResult.newBuilder()
              .setPreparedStatementHandle(handle)
              .setDatasetSchema(ArrowResults.serialize(dataset))
              .setParameterSchema(ArrowResults.serialize(parameters))
              .build();
      listener.onNext(new Result(Any.pack(result).toByteArray()));
      listener.onCompleted();
    } catch (RuntimeException | SQLException e) {
      listener.onError(FlightStatuses.of(e, "prepare"));
    }
  }

  @Override
  public void closePreparedStatement(
      FlightSql.ActionClosePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    held.close(request.getPreparedStatementHandle(), context.peerIdentity());
    listener.onCompleted();
  }

  @Override
  public Runnable acceptPutPreparedStatementQuery(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      FlightStream stream,
      StreamListener<PutResult> ackStream) {
    return () -> {
      try {
        HeldStatements.Held p =
            held.owned(command.getPreparedStatementHandle(), context.peerIdentity());
        List<Object> values = new ArrayList<>();
        while (stream.next()) {
          VectorSchemaRoot root = stream.getRoot();
          if (root.getRowCount() > 0) {
            values.clear();
            for (int i = 0; i < root.getFieldVectors().size(); i++) {
              values.add(Parameters.value(root.getVector(i), 0));
            }
          }
        }
        p.bind(values);
        ackStream.onCompleted();
      } catch (RuntimeException e) {
        ackStream.onError(FlightStatuses.of(e, "bind"));
      }
    };
  }

  @Override
  public FlightInfo getFlightInfoPreparedStatement(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      FlightDescriptor descriptor) {
    HeldStatements.Held p =
        held.owned(command.getPreparedStatementHandle(), context.peerIdentity());
    return info(command, descriptor, p.dataset);
  }

  @Override
  public void getStreamPreparedStatement(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      ServerStreamListener listener) {
    HeldStatements.Held p;
    Properties properties;
    try {
      p = held.owned(command.getPreparedStatementHandle(), context.peerIdentity());
      properties = properties(context);
    } catch (RuntimeException e) {
      listener.error(FlightStatuses.of(e, "execute"));
      return;
    }
    statements.run(
        p.sql,
        p.parameters(),
        context,
        listener,
        () -> {
          PreparedStatement ps = p.acquire(properties);
          if (ps == null) {
            return statements.fresh(p.sql, context);
          }
          return new Statements.Execution() {
            @Override
            public PreparedStatement statement() {
              return ps;
            }

            @Override
            public void cancelling() {
              p.spoil();
            }

            @Override
            public void close() {
              p.release();
            }
          };
        });
  }

  // ---- read-only

  @Override
  public Runnable acceptPutStatement(
      FlightSql.CommandStatementUpdate command,
      CallContext context,
      FlightStream stream,
      StreamListener<PutResult> ackStream) {
    return refuse(ackStream);
  }

  @Override
  public Runnable acceptPutPreparedStatementUpdate(
      FlightSql.CommandPreparedStatementUpdate command,
      CallContext context,
      FlightStream stream,
      StreamListener<PutResult> ackStream) {
    return refuse(ackStream);
  }

  private static Runnable refuse(StreamListener<PutResult> ackStream) {
    return () ->
        ackStream.onError(
            CallStatus.INVALID_ARGUMENT
                .withDescription(
                    "MeterStore's SQL server is read-only: writes go through the library")
                .toRuntimeException());
  }

  // ---- catalog RPCs

  @Override
  public void getStreamSqlInfo(
      FlightSql.CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
    sqlInfo.send(command.getInfoList(), listener);
  }

  @Override
  public void getStreamTypeInfo(
      FlightSql.CommandGetXdbcTypeInfo request,
      CallContext context,
      ServerStreamListener listener) {
    listener.error(
        CallStatus.UNIMPLEMENTED.withDescription("type info is not served").toRuntimeException());
  }

  @Override
  public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
    catalogCalls.catalogs(listener);
  }

  @Override
  public void getStreamSchemas(
      FlightSql.CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
    catalogCalls.schemas(command, context, listener);
  }

  @Override
  public void getStreamTables(
      FlightSql.CommandGetTables command, CallContext context, ServerStreamListener listener) {
    catalogCalls.tables(command, context, listener);
  }

  @Override
  public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
    catalogCalls.tableTypes(context, listener);
  }

  @Override
  protected <T extends Message> List<FlightEndpoint> determineEndpoints(
      T request, FlightDescriptor descriptor, Schema schema) {
    return List.of(new FlightEndpoint(new Ticket(Any.pack(request).toByteArray())));
  }

  // ---- execution

  /**
   * A MeterStore connection with the call's {@code meterstore.*} properties (read mode etc.): its
   * session's options, overridden by the call's headers.
   */
  Connection connection(CallContext context) throws SQLException {
    return open(properties(context));
  }

  /** The call's {@code meterstore.*} properties: its session's options, then its headers. */
  private Properties properties(CallContext context) {
    SessionProperties call = context.getMiddleware(SessionProperties.KEY);
    Properties p = sessions.options(call, context.peerIdentity());
    if (call != null) {
      p.putAll(call.properties());
    }
    return p;
  }

  private Connection open(Properties p) throws SQLException {
    return p.isEmpty() ? catalog.connection() : catalog.connection(p);
  }

  // ---- session options (SetSessionOptions, GetSessionOptions, CloseSession)

  /** Sessions open now. */
  int openSessions() {
    return sessions.size();
  }

  @Override
  public void setSessionOptions(
      SetSessionOptionsRequest request,
      CallContext context,
      StreamListener<SetSessionOptionsResult> listener) {
    sessions.set(
        request, context.getMiddleware(SessionProperties.KEY), context.peerIdentity(), listener);
  }

  @Override
  public void getSessionOptions(
      GetSessionOptionsRequest request,
      CallContext context,
      StreamListener<GetSessionOptionsResult> listener) {
    sessions.get(context.getMiddleware(SessionProperties.KEY), context.peerIdentity(), listener);
  }

  @Override
  public void closeSession(
      CloseSessionRequest request,
      CallContext context,
      StreamListener<CloseSessionResult> listener) {
    sessions.close(context.getMiddleware(SessionProperties.KEY), context.peerIdentity(), listener);
  }

  private Schema describe(String sql, CallContext context) {
    grants.requireReadable(context.peerIdentity(), sql);
    try (Connection c = connection(context);
        PreparedStatement ps = c.prepareStatement(sql)) {
      return ArrowResults.schema(ps.getMetaData(), allocator);
    } catch (SQLException | RuntimeException e) {
      throw FlightStatuses.of(e, "prepare");
    }
  }

  private String checkedSql(String sql) {
    if (sql == null || sql.isBlank()) {
      throw CallStatus.INVALID_ARGUMENT.withDescription("empty SQL").toRuntimeException();
    }
    if (sql.length() > MAX_SQL_CHARS) {
      throw CallStatus.INVALID_ARGUMENT
          .withDescription("SQL longer than " + MAX_SQL_CHARS + " characters")
          .toRuntimeException();
    }
    return sql;
  }

  private FlightInfo info(Message command, FlightDescriptor descriptor, Schema schema) {
    Ticket ticket = new Ticket(Any.pack(command).toByteArray());
    return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
  }

  @Override
  public void close() {
    held.close();
  }
}
