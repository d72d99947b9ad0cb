package org.meterstore.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs statements for the producer: admission (at most {@code maxRunning} at once, the others wait,
 * then are refused), the grant check, execution on a MeterStore connection with the call's
 * properties, streaming ({@link ArrowResults}), the statement timeout over execution and delivery,
 * cancellation, and the statement's metrics.
 */
final class Statements {
  private static final Logger LOG = LoggerFactory.getLogger(Statements.class);

  /** Opens the MeterStore connection of a call. */
  interface Connections {
    Connection open(CallContext context) throws SQLException;
  }

  private final Connections connections;
  private final BufferAllocator allocator;
  private final ServerSettings settings;
  private final Grants grants;
  private final ServerMetrics metrics;
  private final Semaphore running;
  private final int maxRunning;
  private final long admissionWaitMillis;

  Statements(
      Connections connections,
      BufferAllocator allocator,
      ServerSettings settings,
      Grants grants,
      ServerMetrics metrics,
      int maxRunning,
      Duration admissionWait) {
    this.connections = connections;
    this.allocator = allocator;
    this.settings = settings;
    this.grants = grants;
    this.metrics = metrics;
    this.running = new Semaphore(maxRunning);
    this.maxRunning = maxRunning;
    this.admissionWaitMillis = admissionWait.toMillis();
  }

  /** A statement ready to execute for one call; closing it ends the call's use of it. */
  interface Execution extends AutoCloseable {
    PreparedStatement statement();

    /** The statement is about to be cancelled (a cancelled JDBC statement stays cancelled). */
    default void cancelling() {}

    @Override
    void close() throws SQLException;
  }

  /** Where a call's statement comes from. */
  interface Opener {
    Execution open() throws SQLException;
  }

  /** {@code sql} prepared on a fresh connection of the call, both closed after it. */
  Execution fresh(String sql, CallContext context) throws SQLException {
    Connection c = connections.open(context);
    PreparedStatement ps;
    try {
      ps = c.prepareStatement(sql);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
    return new Execution() {
      @Override
      public PreparedStatement statement() {
        return ps;
      }

      @Override
      public void close() throws SQLException {
        try {
          ps.close();
        } finally {
          c.close();
        }
      }
    };
  }

  /** Runs {@code sql} on a fresh connection and streams its rows to {@code listener}. */
  void run(
      String sql, List<Object> parameters, CallContext context, ServerStreamListener listener) {
    run(sql, parameters, context, listener, () -> fresh(sql, context));
  }

  /**
   * Runs {@code sql} (the statement {@code opener} gives) with {@code parameters} and streams its
   * rows to {@code listener}.
   */
  void run(
      String sql,
      List<Object> parameters,
      CallContext context,
      ServerStreamListener listener,
      Opener opener) {
    String user = context.peerIdentity();
    long started = System.nanoTime();
    long deadline = started + settings.statementTimeout().toNanos();
    String outcome = "error";
    boolean admitted = false;
    AtomicBoolean cancelled = new AtomicBoolean();
    try {
      admitted = running.tryAcquire(admissionWaitMillis, TimeUnit.MILLISECONDS);
      if (!admitted) {
        outcome = "refused";
        LOG.info("Refused a statement of {}: {} statements running", user, maxRunning);
        listener.error(
            CallStatus.RESOURCE_EXHAUSTED
                .withDescription(maxRunning + " statements are running; try again")
                .toRuntimeException());
        return;
      }
      if (listener.isCancelled()) {
        outcome = "cancelled";
        return;
      }
      grants.requireReadable(user, sql);
      AtomicBoolean finished = new AtomicBoolean();
      try (Execution execution = opener.open();
          BufferAllocator child = allocator.newChildAllocator("statement", 0, Long.MAX_VALUE)) {
        PreparedStatement ps = execution.statement();
        ps.setQueryTimeout(timeoutSeconds());
        for (int i = 0; i < parameters.size(); i++) {
          ps.setObject(i + 1, parameters.get(i));
        }
        listener.setOnCancelHandler(
            () -> {
              // Flight runs this once the call ends if the client cancelled meanwhile; a statement
              // that finished is not cancelled (a held one would refuse its next executions)
              if (finished.get()) {
                return;
              }
              cancelled.set(true);
              execution.cancelling();
              try {
                ps.cancel();
              } catch (SQLException e) {
                LOG.debug("Cannot cancel a statement: {}", e.toString());
              }
            });
        try (ResultSet rs = ps.executeQuery()) {
          long rows =
              ArrowResults.stream(
                  rs,
                  child,
                  listener,
                  () -> cancelled.get() || System.nanoTime() - deadline > 0,
                  metrics);
          if (rows >= 0) {
            outcome = "ok";
            LOG.debug("Served {} rows to {}", rows, user);
          } else {
            outcome = stopped(listener, cancelled, deadline);
          }
        } finally {
          // before the statement is released
          finished.set(true);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome = "cancelled";
      listener.error(
          CallStatus.CANCELLED.withDescription("server shutting down").toRuntimeException());
    } catch (org.apache.arrow.flight.FlightRuntimeException e) {
      outcome =
          e.status().code() == org.apache.arrow.flight.FlightStatusCode.UNAUTHORIZED
              ? "refused"
              : "error";
      listener.error(e);
    } catch (Exception e) {
      if (cancelled.get() || listener.isCancelled() || System.nanoTime() - deadline > 0) {
        outcome = stopped(listener, cancelled, deadline);
      } else {
        listener.error(FlightStatuses.of(e, "execute"));
      }
    } finally {
      if (admitted) {
        running.release();
      }
      metrics.statement(outcome, System.nanoTime() - started);
    }
  }

  /** The statement's timeout in whole seconds, as JDBC takes it (at least one). */
  private int timeoutSeconds() {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, settings.statementTimeout().toSeconds()));
  }

  /**
   * Ends a statement that stopped before its end: cancelled by the client (or the server's
   * shutdown) or past {@code serve.statement_timeout}; returns the outcome to count.
   */
  private String stopped(ServerStreamListener listener, AtomicBoolean cancelled, long deadline) {
    if (!cancelled.get() && !listener.isCancelled() && System.nanoTime() - deadline > 0) {
      LOG.info(
          "Cancelled a statement after serve.statement_timeout ({})", settings.statementTimeout());
      listener.error(
          CallStatus.TIMED_OUT
              .withDescription(
                  "the statement ran longer than serve.statement_timeout ("
                      + settings.statementTimeout()
                      + ") and was cancelled")
              .toRuntimeException());
      return "timeout";
    }
    listener.error(CallStatus.CANCELLED.withDescription("cancelled").toRuntimeException());
    return "cancelled";
  }
}
