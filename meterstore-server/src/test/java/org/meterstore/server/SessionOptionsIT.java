package org.meterstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightClientMiddleware;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Flight SQL's session options, through Apache Arrow's Flight SQL Java client with its cookie
 * middleware (as ADBC carries {@code adbc.flight.sql.session.option.*}): {@code
 * meterstore.system_at} set once opens the {@code system.*} relations for every later call of the
 * session; a bad name or value is reported per option; the session is the user's alone; a closed
 * session's cookie is refused; a user holds at most {@link Sessions#PER_USER} sessions.
 */
@ExtendWith(PostgresExtension.class)
@SuppressWarnings("try") // Arrow's FlightStream.close() declares Exception
class SessionOptionsIT {
  private static final String SYSTEM_TABLES = "SELECT \"table\" FROM \"system\".\"tables\"";

  @TempDir static Path dir;
  private static ServedStore store;
  private static SqlServer server;
  private static BufferAllocator allocator;

  @BeforeAll
  static void serve(TestDatabase db) {
    store = ServedStore.build(db, dir.resolve("warehouse"));
    server =
        SqlServer.start(
            store.catalog,
            new ServerSettings(
                "127.0.0.1",
                0,
                null,
                null,
                Map.of(
                    "analyst", PasswordHash.create("a-pw".toCharArray(), 10_000),
                    "other", PasswordHash.create("o-pw".toCharArray(), 10_000)),
                Map.of(),
                false,
                Duration.ofMinutes(1)));
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

  /** A signed-in client that keeps cookies, and the session cookie it was last given. */
  private record Client(
      FlightClient flight, FlightSqlClient sql, CallOption token, AtomicReference<String> cookie)
      implements AutoCloseable {
    @Override
    public void close() throws Exception {
      sql.close();
    }
  }

  private static Client client(String user, String password) {
    AtomicReference<String> cookie = new AtomicReference<>();
    FlightClient flight =
        FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port()))
            .intercept(new ClientCookieMiddleware.Factory())
            .intercept(info -> new CookieWatcher(cookie))
            .build();
    CallOption token = flight.authenticateBasicToken(user, password).orElseThrow();
    return new Client(flight, new FlightSqlClient(flight), token, cookie);
  }

  /** Records the session cookie a server sets. */
  private record CookieWatcher(AtomicReference<String> cookie) implements FlightClientMiddleware {
    @Override
    public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

    @Override
    public void onHeadersReceived(CallHeaders incomingHeaders) {
      if (incomingHeaders.containsKey("set-cookie")) {
        for (String c : incomingHeaders.getAll("set-cookie")) {
          if (c.startsWith(SessionProperties.COOKIE + "=") && !c.contains("Max-Age=0")) {
            cookie.set(c.substring(c.indexOf('=') + 1).split(";")[0]);
          }
        }
      }
    }

    @Override
    public void onCallCompleted(CallStatus status) {}
  }

  private static String firstCell(Client c, String sql, CallOption... more) throws Exception {
    CallOption[] options = new CallOption[more.length + 1];
    options[0] = c.token();
    System.arraycopy(more, 0, options, 1, more.length);
    FlightInfo info = c.sql().execute(sql, options);
    try (FlightStream stream = c.sql().getStream(info.getEndpoints().get(0).getTicket(), options)) {
      assertThat(stream.next()).isTrue();
      return ((VarCharVector) stream.getRoot().getVector(0)).getObject(0).toString();
    }
  }

  private static SessionOptionValue text(String value) {
    return SessionOptionValueFactory.makeSessionOptionValue(value);
  }

  @Test
  void anOptionSetOnceHoldsForTheSessionAndItsUserAlone() throws Exception {
    try (Client analyst = client("analyst", "a-pw");
        Client other = client("other", "o-pw")) {
      FlightRuntimeException without =
          catchThrowableOfType(
              FlightRuntimeException.class, () -> firstCell(analyst, SYSTEM_TABLES));
      assertThat(without.getMessage()).contains("meterstore.system_at");

      SetSessionOptionsResult result =
          analyst
              .sql()
              .setSessionOptions(
                  new SetSessionOptionsRequest(
                      Map.of(
                          "meterstore.system_at", text("2026-03-10T12:00:00Z"),
                          "meterstore.bogus", text("1"),
                          "meterstore.mode", text("no-such-mode"))),
                  analyst.token());
      assertThat(result.getErrors()).containsOnlyKeys("meterstore.bogus", "meterstore.mode");
      assertThat(result.getErrors().get("meterstore.bogus").value)
          .isEqualTo(SetSessionOptionsResult.ErrorValue.INVALID_NAME);
      assertThat(result.getErrors().get("meterstore.mode").value)
          .isEqualTo(SetSessionOptionsResult.ErrorValue.INVALID_VALUE);
      assertThat(analyst.cookie().get()).isNotNull();

      assertThat(firstCell(analyst, SYSTEM_TABLES)).isEqualTo(ServedStore.TABLE);
      assertThat(
              analyst
                  .sql()
                  .getSessionOptions(new GetSessionOptionsRequest(), analyst.token())
                  .getSessionOptions())
          .containsOnlyKeys("meterstore.system_at");

      // another user: no session of its own, and the analyst's cookie names no session of its
      assertThat(
              catchThrowableOfType(
                  FlightRuntimeException.class, () -> firstCell(other, SYSTEM_TABLES)))
          .isNotNull();
      FlightRuntimeException stolen =
          catchThrowableOfType(
              FlightRuntimeException.class,
              () -> firstCell(other, SYSTEM_TABLES, cookie(analyst.cookie().get())));
      assertThat(stolen.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);

      String closed = analyst.cookie().get();
      assertThat(analyst.sql().closeSession(new CloseSessionRequest(), analyst.token()).getStatus())
          .isEqualTo(CloseSessionResult.Status.CLOSED);
      FlightRuntimeException stale =
          catchThrowableOfType(
              FlightRuntimeException.class, () -> firstCell(other, "SELECT 'x'", cookie(closed)));
      assertThat(stale.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
      assertThat(stale.getMessage()).contains("no such session");
    }
  }

  @Test
  void aUserHoldsABoundedNumberOfSessions() throws Exception {
    int before = server.openSessions();
    for (int i = 0; i < Sessions.PER_USER + 20; i++) {
      // a fresh client each time: no cookie, so every call opens a session
      try (Client c = client("other", "o-pw")) {
        c.sql()
            .setSessionOptions(
                new SetSessionOptionsRequest(Map.of("meterstore.system_at", text("now"))),
                c.token());
      }
    }
    assertThat(server.openSessions() - before).isLessThanOrEqualTo(Sessions.PER_USER);
  }

  private static CallOption cookie(String id) {
    CallHeaders headers = new FlightCallHeaders();
    headers.insert("cookie", SessionProperties.COOKIE + "=" + id);
    return new HeaderCallOption(headers);
  }
}
