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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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

  /** Prepared statements one user may hold open at once. */
  static final int MAX_PREPARED_PER_USER = 256;

  private final MeterCatalog catalog;
  private final BufferAllocator allocator;
  private final ServerSettings settings;
  private final Statements statements;
  private final Sessions sessions;
  private final SqlInfoBuilder sqlInfo;
  private final Map<ByteString, Prepared> prepared = new ConcurrentHashMap<>();
  private final ServerMetrics metrics;
  private final Grants grants;
  private final CatalogCalls catalogCalls;

  /** A prepared statement: its SQL, its owner and the parameters bound last. */
  private record Prepared(String sql, String user, List<Object> parameters) {}

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
      if (prepared.values().stream().filter(p -> p.user().equals(user)).count()
          >= MAX_PREPARED_PER_USER) {
        throw CallStatus.RESOURCE_EXHAUSTED
            .withDescription(
                MAX_PREPARED_PER_USER + " prepared statements are open; close some first")
            .toRuntimeException();
      }
      Schema dataset;
      Schema parameters;
      try (Connection c = connection(context);
          PreparedStatement ps = c.prepareStatement(sql)) {
        dataset = ArrowResults.schema(ps.getMetaData(), allocator);
        parameters = Parameters.schema(ps.getParameterMetaData());
      }
      ByteString handle = ByteString.copyFrom(UUID.randomUUID().toString(), StandardCharsets.UTF_8);
      prepared.put(handle, new Prepared(sql, user, List.of()));
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
    prepared.remove(request.getPreparedStatementHandle());
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
        Prepared p = owned(command.getPreparedStatementHandle(), context);
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
        prepared.put(command.getPreparedStatementHandle(), new Prepared(p.sql(), p.user(), values));
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
    Prepared p = owned(command.getPreparedStatementHandle(), context);
    return info(command, descriptor, describe(p.sql(), context));
  }

  @Override
  public void getStreamPreparedStatement(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      ServerStreamListener listener) {
    Prepared p;
    try {
      p = owned(command.getPreparedStatementHandle(), context);
    } catch (RuntimeException e) {
      listener.error(FlightStatuses.of(e, "execute"));
      return;
    }
    statements.run(p.sql(), p.parameters(), context, listener);
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
    SessionProperties call = context.getMiddleware(SessionProperties.KEY);
    java.util.Properties p = sessions.options(call, context.peerIdentity());
    if (call != null) {
      p.putAll(call.properties());
    }
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

  private Prepared owned(ByteString handle, CallContext context) {
    Prepared p = prepared.get(handle);
    if (p == null || !p.user().equals(context.peerIdentity())) {
      throw CallStatus.NOT_FOUND
          .withDescription("no such prepared statement (closed, or never created)")
          .toRuntimeException();
    }
    return p;
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
    prepared.clear();
  }
}
