package org.meterstore.server;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.GeneratedBearerTokenAuthenticator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.meterstore.MeterCatalog;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MeterStore's SQL over Arrow Flight SQL: {@link #start} listens on the configured address in front
 * of a {@link MeterCatalog} it does not own. Clients sign in with a user's name and password (HTTP
 * basic over Flight's handshake) and then carry a bearer token; a refusal never says whether the
 * user exists. The catalog holds the PostgreSQL and object-store credentials; clients never see
 * them. Starts its own threads (gRPC's) — {@link #close()} stops them, cancelling what still runs.
 */
public final class SqlServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SqlServer.class);

  /** Statements running at once; more wait up to ten seconds, then are refused. */
  static final int MAX_RUNNING = 16;

  private final FlightServer server;
  private final BufferAllocator allocator;
  private final SqlProducer producer;
  private final ServerSettings settings;

  private SqlServer(
      FlightServer server,
      BufferAllocator allocator,
      SqlProducer producer,
      ServerSettings settings) {
    this.server = server;
    this.allocator = allocator;
    this.producer = producer;
    this.settings = settings;
  }

  /**
   * Starts serving {@code catalog} as {@code settings} say.
   *
   * @throws MeterStoreException {@code CONFIG} when the certificate or key cannot be read or the
   *     address cannot be bound
   */
  public static SqlServer start(MeterCatalog catalog, ServerSettings settings) {
    return start(catalog, settings, OpenTelemetry.noop());
  }

  /**
   * {@link #start(MeterCatalog, ServerSettings)} with the server's metrics going to {@code otel}
   * (statements by outcome and duration, rows and bytes sent, refused sign-ins).
   */
  public static SqlServer start(MeterCatalog catalog, ServerSettings settings, OpenTelemetry otel) {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(otel, "otel; use OpenTelemetry.noop()");
    ServerMetrics metrics = new ServerMetrics(otel);
    BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);
    SqlProducer producer = new SqlProducer(catalog, allocator, settings, MAX_RUNNING, metrics);
    Location location =
        settings.tls()
            ? Location.forGrpcTls(settings.host(), settings.port())
            : Location.forGrpcInsecure(settings.host(), settings.port());
    FlightServer.Builder builder = FlightServer.builder(allocator, location, producer);
    try {
      if (settings.tls()) {
        // Flight reads the files when the server is built
        builder.useTls(settings.tlsCertificate().toFile(), settings.tlsKey().toFile());
      }
      if (!settings.users().isEmpty()) {
        builder.headerAuthenticator(
            new GeneratedBearerTokenAuthenticator(
                new BasicCallHeaderAuthenticator(new Users(settings.users(), metrics))));
      }
      builder.middleware(SessionProperties.KEY, new SessionProperties.Factory());
      FlightServer server = builder.build().start();
      LOG.info(
          "Serving MeterStore SQL over Flight SQL on {}:{} ({}, {} user(s))",
          settings.host(),
          server.getPort(),
          settings.tls() ? "TLS" : "plaintext, loopback only",
          settings.users().size());
      return new SqlServer(server, allocator, producer, settings);
    } catch (IOException | RuntimeException e) {
      producer.close();
      allocator.close();
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot serve on " + settings.host() + ":" + settings.port() + ": " + e.getMessage(),
          e);
    }
  }

  /** Bytes of Arrow memory the server holds now (batches being built or sent). */
  public long allocatedBytes() {
    return allocator.getAllocatedMemory();
  }

  /** The port the server listens on. */
  public int port() {
    return server.getPort();
  }

  /** The settings it runs with. */
  public ServerSettings settings() {
    return settings;
  }

  /** Blocks until the server stops ({@link #close()} from another thread). */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Stops accepting calls, lets running statements finish for up to ten seconds, then cancels them;
   * releases the server's memory.
   */
  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("Statements still running after 10 s; cancelling them");
      }
      server.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close();
    allocator.close();
  }

  /** Checks a user's name and password against the configured hashes. */
  private static final class Users implements BasicCallHeaderAuthenticator.CredentialValidator {
    private final Map<String, PasswordHash> hashes = new HashMap<>();
    private final PasswordHash decoy;
    private final ServerMetrics metrics;

    Users(Map<String, String> configured, ServerMetrics metrics) {
      this.metrics = metrics;
      int iterations = 0;
      for (Map.Entry<String, String> e : configured.entrySet()) {
        PasswordHash h = PasswordHash.parse(e.getValue(), "serve.users." + e.getKey());
        hashes.put(e.getKey(), h);
        iterations = Math.max(iterations, h.iterations());
      }
      this.decoy = PasswordHash.decoy(iterations);
    }

    @Override
    public CallHeaderAuthenticator.AuthResult validate(String user, String password) {
      PasswordHash h = user == null ? null : hashes.get(user);
      char[] chars = password == null ? new char[0] : password.toCharArray();
      boolean ok = (h != null ? h : decoy).matches(chars) && h != null;
      java.util.Arrays.fill(chars, '\0');
      if (!ok) {
        metrics.authFailure();
        LOG.info("Refused a sign-in (user name or password wrong)");
        throw CallStatus.UNAUTHENTICATED
            .withDescription("user name or password wrong")
            .toRuntimeException();
      }
      return () -> user;
    }
  }
}
