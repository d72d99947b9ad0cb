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
    FlightClient flight =
        FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port()))
            .build();
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

  @Test
  void aClientThatStopsReadingHoldsBoundedMemoryAndCancellingEndsTheStatement() throws Exception {
    // 1,920 readings 500 times over: 960,000 rows, about 40 MiB of Arrow buffers in all
    StringBuilder times = new StringBuilder("1");
    for (int k = 2; k <= 500; k++) {
      times.append(',').append(k);
    }
    String large =
        "SELECT r.\"malo_id\", r.\"from\", r.\"value\", t.x FROM \""
            + ServedStore.TABLE
            + "\" AS r CROSS JOIN (SELECT * FROM UNNEST(ARRAY["
            + times
            + "])) AS t(x)";
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

  /** The sum of a counter's points collected now. */
  private static long sum(String name) {
    long total = 0;
    for (MetricData m : metrics.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        total += m.getLongSumData().getPoints().stream().mapToLong(p -> p.getValue()).sum();
      }
    }
    return total;
  }
}
