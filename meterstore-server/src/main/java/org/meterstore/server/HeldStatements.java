package org.meterstore.server;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Flight SQL prepared statements clients hold: each keeps its MeterStore connection and JDBC
 * prepared statement (planned once, as an in-process client keeps one), its schemas and the
 * parameters bound last, until the client closes it or the server stops. An execution uses the held
 * statement when nobody else is executing it and the call's connection properties are those it was
 * prepared with; otherwise it runs on a fresh connection. At most {@value #PER_USER} per user.
 */
final class HeldStatements implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HeldStatements.class);

  /** Prepared statements one user may hold open at once. */
  static final int PER_USER = 256;

  private final Map<ByteString, Held> held = new ConcurrentHashMap<>();
  private final org.apache.arrow.memory.BufferAllocator allocator;

  HeldStatements(org.apache.arrow.memory.BufferAllocator allocator) {
    this.allocator = allocator;
  }

  /** One held prepared statement. */
  static final class Held {
    final String sql;
    final String user;
    final Schema dataset;
    final Schema parameterSchema;
    private final Properties properties;
    private final Connection connection;
    private PreparedStatement statement;
    private volatile boolean spoilt;
    private final ReentrantLock inUse = new ReentrantLock();
    private volatile List<Object> parameters = List.of();

    private Held(
        String sql,
        String user,
        Properties properties,
        Connection connection,
        PreparedStatement statement,
        org.apache.arrow.memory.BufferAllocator allocator)
        throws SQLException {
      this.sql = sql;
      this.user = user;
      this.properties = properties;
      this.connection = connection;
      this.statement = statement;
      this.dataset = ArrowResults.schema(statement.getMetaData(), allocator);
      this.parameterSchema = Parameters.schema(statement.getParameterMetaData());
    }

    /** The parameters bound last. */
    List<Object> parameters() {
      return parameters;
    }

    /** Binds {@code values} for the next executions. */
    void bind(List<Object> values) {
      this.parameters = List.copyOf(values);
    }

    /**
     * The held statement for one execution with {@code callProperties}, or null when another
     * execution holds it or the call's properties differ (the caller then runs on a fresh
     * connection). The caller calls {@link #release()} when done.
     */
    PreparedStatement acquire(Properties callProperties) {
      if (!properties.equals(callProperties) || !inUse.tryLock()) {
        return null;
      }
      renewIfSpoilt();
      return statement;
    }

    /**
     * Records that the statement is being cancelled: a cancelled JDBC statement refuses every later
     * execution, so it is prepared anew before the next one (and when the current one ends).
     */
    void spoil() {
      spoilt = true;
    }

    /** Ends an execution that {@link #acquire} let in. */
    void release() {
      try {
        renewIfSpoilt();
      } finally {
        inUse.unlock();
      }
    }

    /** Prepares the statement anew if it was cancelled; called holding {@code inUse}. */
    private void renewIfSpoilt() {
      if (!spoilt) {
        return;
      }
      spoilt = false;
      try {
        PreparedStatement old = statement;
        statement = connection.prepareStatement(sql);
        old.close();
      } catch (SQLException e) {
        LOG.debug("Cannot prepare a cancelled statement anew: {}", e.toString());
      }
    }

    private void close() {
      try {
        statement.close();
        connection.close();
      } catch (SQLException e) {
        LOG.debug("Closing a prepared statement failed: {}", e.toString());
      }
    }
  }

  /**
   * Prepares {@code sql} for {@code user} on {@code connection} (opened with {@code properties}),
   * which it keeps until the statement is closed.
   */
  ByteString create(String sql, String user, Properties properties, Connection connection)
      throws SQLException {
    if (held.values().stream().filter(h -> h.user.equals(user)).count() >= PER_USER) {
      connection.close();
      throw CallStatus.RESOURCE_EXHAUSTED
          .withDescription(PER_USER + " prepared statements are open; close some first")
          .toRuntimeException();
    }
    Held h;
    try {
      h = new Held(sql, user, properties, connection, connection.prepareStatement(sql), allocator);
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
    ByteString handle = ByteString.copyFrom(UUID.randomUUID().toString(), StandardCharsets.UTF_8);
    held.put(handle, h);
    return handle;
  }

  /**
   * The statement {@code handle} names, if it is {@code user}'s.
   *
   * @throws org.apache.arrow.flight.FlightRuntimeException {@code NOT_FOUND} otherwise
   */
  Held owned(ByteString handle, String user) {
    Held h = held.get(handle);
    if (h == null || !h.user.equals(user)) {
      throw CallStatus.NOT_FOUND
          .withDescription("no such prepared statement (closed, or never created)")
          .toRuntimeException();
    }
    return h;
  }

  /** Closes {@code handle}'s statement if it is {@code user}'s. */
  void close(ByteString handle, String user) {
    Held h = held.get(handle);
    if (h != null && h.user.equals(user) && held.remove(handle, h)) {
      h.close();
    }
  }

  /** Closes every held statement (the server stops). */
  @Override
  public void close() {
    for (ByteString handle : List.copyOf(held.keySet())) {
      Held h = held.remove(handle);
      if (h != null) {
        h.close();
      }
    }
  }
}
