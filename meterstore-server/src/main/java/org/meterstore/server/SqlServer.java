package org.meterstore.server;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

  /** Statements running at once; more wait up to {@link #ADMISSION_WAIT}, then are refused. */
  static final int MAX_RUNNING = 16;

  /** How long a statement waits for one of the {@link #MAX_RUNNING} places. */
  static final java.time.Duration ADMISSION_WAIT = java.time.Duration.ofSeconds(10);

  /**
   * Threads serving calls: running statements, statements waiting for a place, sign-ins and catalog
   * calls. Calls beyond them queue (a few hundred bytes each) instead of starting threads.
   */
  static final int THREADS = 4 * MAX_RUNNING;

  /** Name prefix of the server's call threads. */
  static final String THREAD_PREFIX = "meterstore-serve-";

  private final FlightServer server;
  private final BufferAllocator allocator;
  private final SqlProducer producer;
  private final ServerSettings settings;
  private final ExecutorService calls;
  private final String threadPrefix;

  private SqlServer(
      FlightServer server,
      BufferAllocator allocator,
      SqlProducer producer,
      ServerSettings settings,
      ExecutorService calls,
      String threadPrefix) {
    this.calls = calls;
    this.threadPrefix = threadPrefix;
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
    SqlProducer producer =
        new SqlProducer(catalog, allocator, settings, MAX_RUNNING, ADMISSION_WAIT, metrics);
    String threadPrefix =
        THREAD_PREFIX
            + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 16))
            + "-";
    ExecutorService calls = callThreads(threadPrefix);
    Location location =
        settings.tls()
            ? Location.forGrpcTls(settings.host(), settings.port())
            : Location.forGrpcInsecure(settings.host(), settings.port());
    FlightServer.Builder builder =
        FlightServer.builder(allocator, location, producer).executor(calls);
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
      return new SqlServer(server, allocator, producer, settings, calls, threadPrefix);
    } catch (IOException | RuntimeException e) {
      calls.shutdownNow();
      producer.close();
      allocator.close();
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot serve on " + settings.host() + ":" + settings.port() + ": " + e.getMessage(),
          e);
    }
  }

  /** At most {@link #THREADS} daemon threads, started on demand and ended when idle. */
  private static ExecutorService callThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, prefix + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** Bytes of Arrow memory the server holds now (batches being built or sent). */
  public long allocatedBytes() {
    return allocator.getAllocatedMemory();
  }

  /** Flight SQL sessions open now (all users). */
  int openSessions() {
    return producer.openSessions();
  }

  /** The name prefix of this server's call threads. */
  String threadPrefix() {
    return threadPrefix;
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
      calls.shutdown();
      if (!calls.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("Call threads still busy after the server stopped; interrupting them");
        calls.shutdownNow();
      }
    } catch (InterruptedException e) {
      calls.shutdownNow();
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
