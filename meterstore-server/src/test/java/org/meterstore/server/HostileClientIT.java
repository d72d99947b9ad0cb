package org.meterstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.auth2.BearerCredentialWriter;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Clients that misbehave, through Apache Arrow's Flight SQL Java client: oversized SQL, a forged
 * ticket, an unknown prepared statement, a made-up bearer token, a wrong password, a client that
 * stops reading a large result and then cancels, and sixteen clients at once. Each gets a Flight
 * status (never a stack trace), the server stays up, its Arrow memory is bounded while a client
 * stalls and back to zero afterwards, and its metrics count what happened.
 */
@ExtendWith(PostgresExtension.class)
@SuppressWarnings("try") // Arrow's FlightStream.close() declares Exception
class HostileClientIT {
  private static final String PASSWORD = "hostile-suite-pw";

  @TempDir static Path dir;
  private static ServedStore store;
  private static SqlServer server;
  private static InMemoryMetricReader metrics;
  private static BufferAllocator allocator;

  @BeforeAll
  static void serve(TestDatabase db) {
    store = ServedStore.build(db, dir.resolve("warehouse"));
    metrics = InMemoryMetricReader.create();
    SdkMeterProvider meters = SdkMeterProvider.builder().registerMetricReader(metrics).build();
    io.opentelemetry.sdk.OpenTelemetrySdk otel =
        io.opentelemetry.sdk.OpenTelemetrySdk.builder().setMeterProvider(meters).build();
    ServerSettings settings =
        new ServerSettings(
            "127.0.0.1",
            0,
            null,
            null,
            Map.of("analyst", PasswordHash.create(PASSWORD.toCharArray(), 10_000)),
            Map.of(),
            false,
            Duration.ofMinutes(1));
    server = SqlServer.start(store.catalog, settings, otel);
    allocator = new RootAllocator(Long.MAX_VALUE);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (store != null) {
      store.close();
    }
    if (allocator != null) {
      allocator.close();
    }
  }

  /** A signed-in client and the bearer token to pass on its calls. */
  private record Client(FlightClient flight, FlightSqlClient sql, CallOption token)
      implements AutoCloseable {
    @Override
    public void close() throws Exception {
      sql.close();
    }
  }

  private static Client client() {
    return client(server);
  }

  private static Client client(SqlServer to) {
    FlightClient flight =
        FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", to.port())).build();
    CallOption token = flight.authenticateBasicToken("analyst", PASSWORD).orElseThrow();
    return new Client(flight, new FlightSqlClient(flight), token);
  }

  private static long count(Client c, String sql) throws Exception {
    FlightInfo info = c.sql().execute(sql, c.token());
    try (FlightStream stream =
        c.sql().getStream(info.getEndpoints().get(0).getTicket(), c.token())) {
      assertThat(stream.next()).isTrue();
      return ((BigIntVector) stream.getRoot().getVector(0)).get(0);
    }
  }

  private static String expectedCount() throws Exception {
    try (Connection local = store.catalog.connection();
        Statement s = local.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + ServedStore.TABLE + "\"")) {
      rs.next();
      return Long.toString(rs.getLong(1));
    }
  }

  private static void assertCleanStatus(FlightRuntimeException e, FlightStatusCode code) {
    assertThat(e.status().code()).isEqualTo(code);
    assertThat(String.valueOf(e.getMessage()))
        .doesNotContain("\tat ")
        .doesNotContain("Exception:")
        .doesNotContain(PASSWORD);
  }

  @Test
  void malformedRequestsGetAStatusAndTheServerStaysUp() throws Exception {
    try (Client c = client()) {
      String huge = "SELECT 1 -- " + "x".repeat(SqlProducer.MAX_SQL_CHARS);
      assertCleanStatus(
          catchThrowableOfType(
              FlightRuntimeException.class, () -> c.sql().execute(huge, c.token())),
          FlightStatusCode.INVALID_ARGUMENT);
      assertCleanStatus(
          catchThrowableOfType(
              FlightRuntimeException.class,
              () -> c.sql().execute("SELEKT nonsense FROM nowhere", c.token())),
          FlightStatusCode.INVALID_ARGUMENT);
      FlightRuntimeException forged =
          catchThrowableOfType(
              FlightRuntimeException.class,
              () -> {
                try (FlightStream s =
                    c.flight()
                        .getStream(
                            new Ticket("not a ticket".getBytes(StandardCharsets.UTF_8)),
                            c.token())) {
                  s.next();
                }
              });
      assertThat(forged).isNotNull();
      assertThat(String.valueOf(forged.getMessage())).doesNotContain("\tat ");
      Ticket unknownPrepared =
          new Ticket(
              Any.pack(
                      FlightSql.CommandPreparedStatementQuery.newBuilder()
                          .setPreparedStatementHandle(ByteString.copyFromUtf8("no-such-handle"))
                          .build())
                  .toByteArray());
      assertCleanStatus(
          catchThrowableOfType(
              FlightRuntimeException.class,
              () -> {
                try (FlightStream s = c.flight().getStream(unknownPrepared, c.token())) {
                  s.next();
                }
              }),
          FlightStatusCode.NOT_FOUND);
      assertThat(Long.toString(count(c, "SELECT COUNT(*) FROM \"" + ServedStore.TABLE + "\"")))
          .isEqualTo(expectedCount());
    }
  }

  @Test
  void aMadeUpTokenAndAWrongPasswordAreRefusedAndCounted() throws Exception {
    long before = sum("meterstore.server.auth.failures");
    try (FlightClient flight =
        FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port()))
            .build()) {
      FlightSqlClient sql = new FlightSqlClient(flight);
      CallOption forged = new CredentialCallOption(new BearerCredentialWriter("made-up-token"));
      assertCleanStatus(
          catchThrowableOfType(FlightRuntimeException.class, () -> sql.execute("SELECT 1", forged)),
          FlightStatusCode.UNAUTHENTICATED);
      FlightRuntimeException wrong =
          catchThrowableOfType(
              FlightRuntimeException.class,
              () -> flight.authenticateBasicToken("analyst", "not-" + PASSWORD));
      assertCleanStatus(wrong, FlightStatusCode.UNAUTHENTICATED);
      assertThat(wrong.getMessage()).contains("user name or password wrong");
    }
    assertThat(sum("meterstore.server.auth.failures")).isGreaterThan(before);
  }

  /** The table's readings 500 times over: about a million rows, 40 MiB of Arrow buffers. */
  private static String large() {
    StringBuilder times = new StringBuilder("1");
    for (int k = 2; k <= 500; k++) {
      times.append(',').append(k);
    }
    return "SELECT r.\"malo_id\", r.\"from\", r.\"value\", t.x FROM \""
        + ServedStore.TABLE
        + "\" AS r CROSS JOIN (SELECT * FROM UNNEST(ARRAY["
        + times
        + "])) AS t(x)";
  }

  @Test
  void aClientThatStopsReadingHoldsBoundedMemoryAndCancellingEndsTheStatement() throws Exception {
    String large = large();
    long statementsBefore = sum("meterstore.server.statements");
    try (Client c = client()) {
      FlightInfo info = c.sql().execute(large, c.token());
      FlightStream stream = c.sql().getStream(info.getEndpoints().get(0).getTicket(), c.token());
      try {
        long rowsBefore = sum("meterstore.server.rows_sent");
        assertThat(stream.next()).isTrue();
        Thread.sleep(2_000); // the client stops reading
        long produced = sum("meterstore.server.rows_sent") - rowsBefore;
        // the server waits for a stalled client: what it sent fills the transport's windows
        // and buffers (about 300,000 rows here), never the whole result (a server that does not
        // wait sends all 960,000 rows in these two seconds)
        assertThat(produced).isPositive().isLessThan(480_000);
        assertThat(server.allocatedBytes()).isLessThan(16L * 1024 * 1024);
      } finally {
        stream.cancel("the client gives up", null);
        stream.close();
      }
    }
    // the statement ends on the server's side: its memory is freed, then it is counted
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while ((server.allocatedBytes() > 0 || sum("meterstore.server.statements") <= statementsBefore)
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(server.allocatedBytes()).as("the statement's memory is released").isZero();
    assertThat(sum("meterstore.server.statements")).isGreaterThan(statementsBefore);
  }

  @Test
  void sixteenClientsAtOnceAllGetTheAnswer() throws Exception {
    String expected = expectedCount();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<Long>> answers = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        answers.add(
            pool.submit(
                () -> {
                  try (Client c = client()) {
                    long n = 0;
                    for (int q = 0; q < 3; q++) {
                      n = count(c, "SELECT COUNT(*) FROM \"" + ServedStore.TABLE + "\"");
                    }
                    return n;
                  }
                }));
      }
      for (Future<Long> a : answers) {
        assertThat(Long.toString(a.get())).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(sum("meterstore.server.bytes_sent")).isPositive();
    assertThat(sum("meterstore.server.rows_sent")).isPositive();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (server.allocatedBytes() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(server.allocatedBytes()).isZero();
  }

  /**
   * A client that gives up on a prepared statement's large result and executes it again gets the
   * whole second answer: the server holds the planned statement, and a cancel that reaches it after
   * the execution ended must not leave it cancelled for good (a cancelled JDBC statement refuses
   * every later execution).
   */
  @Test
  void aPreparedStatementAnswersAgainAfterItsClientGaveUpOnAResult() throws Exception {
    String sql = large() + " WHERE t.x <= ?";
    String url =
        "jdbc:arrow-flight-sql://127.0.0.1:"
            + server.port()
            + "/?useEncryption=false&user=analyst&password="
            + PASSWORD;
    try (Connection c = java.sql.DriverManager.getConnection(url);
        java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
      for (int round = 0; round < 2; round++) {
        ps.setInt(1, 500);
        long before = sum("meterstore.server.statements", "cancelled");
        try (ResultSet rs = ps.executeQuery()) {
          // the client reads one row of ~a million and closes the result: Arrow's driver cancels
          // the stream (its Statement.cancel() would leave the client's statement cancelled)
          assertThat(rs.next()).isTrue();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (sum("meterstore.server.statements", "cancelled") == before
            && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertThat(sum("meterstore.server.statements", "cancelled")).isGreaterThan(before);
        ps.setInt(1, 2);
        long rows = 0;
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows++;
          }
        }
        assertThat(Long.toString(rows / 2)).isEqualTo(expectedCount());
      }
    }
    awaitIdle(server);
  }

  /**
   * Eighty statements at once, none read: sixteen run (each holding at most a batch or two of
   * memory while its client does not read), the others wait for a place and are refused with
   * RESOURCE_EXHAUSTED; the server never runs more than {@link SqlServer#THREADS} call threads,
   * however many calls arrive.
   */
  @Test
  void statementsBeyondTheLimitAreRefusedAndThreadsAndMemoryStayBounded() throws Exception {
    int calls = 80;
    long refusedBefore = sum("meterstore.server.statements", "refused");
    List<FlightStream> streams = new ArrayList<>();
    long maxThreads = 0;
    long maxMemory = 0;
    try (Client c = client()) {
      try {
        FlightInfo info = c.sql().execute(large(), c.token());
        Ticket ticket = info.getEndpoints().get(0).getTicket();
        for (int i = 0; i < calls; i++) {
          streams.add(c.sql().getStream(ticket, c.token()));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (sum("meterstore.server.statements", "refused") - refusedBefore
                < calls - SqlServer.MAX_RUNNING
            && System.nanoTime() < deadline) {
          maxThreads = Math.max(maxThreads, serverThreads());
          maxMemory = Math.max(maxMemory, server.allocatedBytes());
          Thread.sleep(50);
        }
        assertThat(sum("meterstore.server.statements", "refused") - refusedBefore)
            .as("statements beyond the %d places refused", SqlServer.MAX_RUNNING)
            .isEqualTo(calls - SqlServer.MAX_RUNNING);
        assertThat(maxThreads).isPositive().isLessThanOrEqualTo(SqlServer.THREADS);
        // sixteen stalled statements, each holding what its transport window left over
        assertThat(maxMemory).isLessThan(SqlServer.MAX_RUNNING * 16L * 1024 * 1024);
        int running = 0;
        int refused = 0;
        for (FlightStream stream : streams) {
          try {
            if (stream.next()) {
              running++;
            }
          } catch (FlightRuntimeException e) {
            assertCleanStatus(e, FlightStatusCode.RESOURCE_EXHAUSTED);
            assertThat(e.getMessage()).contains("statements are running; try again");
            refused++;
          }
        }
        assertThat(running).isEqualTo(SqlServer.MAX_RUNNING);
        assertThat(refused).isEqualTo(calls - SqlServer.MAX_RUNNING);
      } finally {
        // before the client closes: a stream holds the client's memory
        for (FlightStream stream : streams) {
          stream.cancel("done", null);
          stream.close();
        }
      }
    }
    awaitIdle(server);
    assertThat(Long.toString(countWithFreshClient())).isEqualTo(expectedCount());
  }

  /**
   * serve.statement_timeout covers the whole statement: a scan that computes for too long is
   * stopped between rows, and a client that stops reading is cut off; both get TIMED_OUT and the
   * server's memory is released.
   */
  @Test
  void aStatementPastTheTimeoutIsCancelledWithTimedOut() throws Exception {
    try (SqlServer quick = SqlServer.start(store.catalog, settings(Duration.ofSeconds(2)));
        Client c = client(quick)) {
      // Calcite re-reads both tiers once per outer row: about a minute without the timeout
      String slow =
          "SELECT COUNT(*) FROM \""
              + ServedStore.TABLE
              + "\" AS a CROSS JOIN \""
              + ServedStore.TABLE
              + "\" AS b WHERE a.\"value\" <> b.\"value\"";
      FlightRuntimeException computing =
          catchThrowableOfType(FlightRuntimeException.class, () -> count(c, slow));
      assertCleanStatus(computing, FlightStatusCode.TIMED_OUT);
      assertThat(computing.getMessage()).contains("serve.statement_timeout (PT2S)");

      FlightInfo info = c.sql().execute(large(), c.token());
      try (FlightStream stream =
          c.sql().getStream(info.getEndpoints().get(0).getTicket(), c.token())) {
        assertThat(stream.next()).isTrue();
        Thread.sleep(3_000); // the client stops reading past the timeout
        FlightRuntimeException stalled =
            catchThrowableOfType(
                FlightRuntimeException.class,
                () -> {
                  while (stream.next()) {
                    // drain what was sent before the server gave up
                  }
                });
        assertCleanStatus(stalled, FlightStatusCode.TIMED_OUT);
      }
      awaitIdle(quick);
    }
  }

  /**
   * Closing the server while a client stalls in a large result: the client gets a status, the
   * statement's reader pins on the hot partitions are released, the server's memory is freed (its
   * allocator refuses to close otherwise) and its call threads end.
   */
  @Test
  void shuttingDownCancelsARunningStatementAndReleasesItsPins() throws Exception {
    SqlServer stopping = SqlServer.start(store.catalog, settings(Duration.ofMinutes(1)));
    java.time.Instant now = java.time.Instant.now();
    try (Client c = client(stopping)) {
      FlightInfo info = c.sql().execute(large(), c.token());
      FlightStream stream = c.sql().getStream(info.getEndpoints().get(0).getTicket(), c.token());
      try {
        assertThat(stream.next()).isTrue();
        assertThat(store.tiers.hot.pins().active(ServedStore.TABLE, now))
            .as("the running statement pins the hot partitions it reads")
            .isNotEmpty();
        stopping.close();
        FlightRuntimeException ended =
            catchThrowableOfType(
                FlightRuntimeException.class,
                () -> {
                  while (stream.next()) {
                    // what was already sent
                  }
                });
        assertThat(ended).as("the client learns that its statement ended").isNotNull();
        assertThat(String.valueOf(ended.getMessage())).doesNotContain("\tat ");
      } finally {
        stream.close();
      }
    }
    assertThat(store.tiers.hot.pins().active(ServedStore.TABLE, now)).isEmpty();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (serverThreadsOf(stopping) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(serverThreadsOf(stopping)).isZero();
  }

  private static ServerSettings settings(Duration timeout) {
    return new ServerSettings(
        "127.0.0.1",
        0,
        null,
        null,
        Map.of("analyst", PasswordHash.create(PASSWORD.toCharArray(), 10_000)),
        Map.of(),
        false,
        timeout);
  }

  private static long countWithFreshClient() throws Exception {
    try (Client c = client()) {
      return count(c, "SELECT COUNT(*) FROM \"" + ServedStore.TABLE + "\"");
    }
  }

  /** Waits until {@code s} holds no Arrow memory (its statements ended). */
  private static void awaitIdle(SqlServer s) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (s.allocatedBytes() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(s.allocatedBytes()).as("every statement's memory is released").isZero();
  }

  /** The call threads of every server in this JVM. */
  private static long serverThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith(SqlServer.THREAD_PREFIX))
        .count();
  }

  /** The call threads of {@code s}. */
  private static long serverThreadsOf(SqlServer s) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith(s.threadPrefix()))
        .count();
  }

  /** The sum of a counter's points collected now. */
  private static long sum(String name) {
    return sum(name, null);
  }

  /** The same, only the points whose outcome is {@code outcome} (all when null). */
  private static long sum(String name, String outcome) {
    long total = 0;
    for (MetricData m : metrics.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        total +=
            m.getLongSumData().getPoints().stream()
                .filter(
                    p ->
                        outcome == null
                            || outcome.equals(p.getAttributes().get(ServerMetrics.OUTCOME)))
                .mapToLong(p -> p.getValue())
                .sum();
      }
    }
    return total;
  }
}
