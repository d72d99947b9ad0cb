package org.meterstore.server;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightProducer.StreamListener;
import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SessionOptionValueVisitor;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.meterstore.MeterCatalog;

/**
 * Flight SQL sessions: the {@code meterstore.*} connection properties a client sets once with
 * {@code SetSessionOptions} (ADBC's {@code adbc.flight.sql.session.option.*}) and every later call
 * of the session uses, as if they were sent as headers. A session is named by the cookie {@value
 * SessionProperties#COOKIE} the server sets, belongs to the user who made it (another user's cookie
 * is an unknown session) and lives until {@code CloseSession} or until its user has opened {@value
 * #PER_USER} newer ones (the least recently used goes first), so a client cannot grow the server's
 * memory by opening sessions. A call naming an unknown session is refused ({@code NOT_FOUND})
 * rather than run without the options its client set.
 */
final class Sessions {
  /** Sessions one user holds at once. */
  static final int PER_USER = 64;

  private final MeterCatalog catalog;
  private final Map<String, Session> byId = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final AtomicLong clock = new AtomicLong();

  /** One session: its owner, its options, and when it was last used (a counter, not a clock). */
  private static final class Session {
    final String user;
    final Map<String, String> options = new ConcurrentHashMap<>();
    volatile long used;

    Session(String user, long used) {
      this.user = user;
      this.used = used;
    }
  }

  Sessions(MeterCatalog catalog) {
    this.catalog = catalog;
  }

  /**
   * The options of the session the call names (a copy; empty without a session).
   *
   * @throws org.apache.arrow.flight.FlightRuntimeException {@code NOT_FOUND} when the call names a
   *     session that is closed, evicted or another user's
   */
  Properties options(SessionProperties call, String user) {
    Properties p = new Properties();
    if (call == null || call.sessionId() == null) {
      return p;
    }
    p.putAll(owned(call.sessionId(), user).options);
    return p;
  }

  /** Sets (an empty value: erases) options, creating the call's session when it has none. */
  void set(
      SetSessionOptionsRequest request,
      SessionProperties call,
      String user,
      StreamListener<SetSessionOptionsResult> listener) {
    try {
      Map<String, SetSessionOptionsResult.Error> errors = new HashMap<>();
      Map<String, String> accepted = new HashMap<>();
      java.util.Set<String> erased = new java.util.HashSet<>();
      for (Map.Entry<String, SessionOptionValue> e : request.getSessionOptions().entrySet()) {
        String name = e.getKey().toLowerCase(java.util.Locale.ROOT);
        if (!SessionProperties.ALLOWED.contains(name)) {
          errors.put(e.getKey(), error(SetSessionOptionsResult.ErrorValue.INVALID_NAME));
          continue;
        }
        if (e.getValue().isEmpty()) {
          erased.add(name);
          continue;
        }
        String value = e.getValue().acceptVisitor(AS_TEXT);
        if (value == null || !valid(name, value)) {
          errors.put(e.getKey(), error(SetSessionOptionsResult.ErrorValue.INVALID_VALUE));
          continue;
        }
        accepted.put(name, value);
      }
      Session session = call.sessionId() != null ? owned(call.sessionId(), user) : open(user, call);
      session.options.keySet().removeAll(erased);
      session.options.putAll(accepted);
      listener.onNext(new SetSessionOptionsResult(errors));
      listener.onCompleted();
    } catch (RuntimeException e) {
      listener.onError(FlightStatuses.of(e, "set session options"));
    }
  }

  /** The call's session options (none without a session). */
  void get(SessionProperties call, String user, StreamListener<GetSessionOptionsResult> listener) {
    try {
      Map<String, SessionOptionValue> out = new HashMap<>();
      if (call != null && call.sessionId() != null) {
        owned(call.sessionId(), user)
            .options
            .forEach((k, v) -> out.put(k, SessionOptionValueFactory.makeSessionOptionValue(v)));
      }
      listener.onNext(new GetSessionOptionsResult(out));
      listener.onCompleted();
    } catch (RuntimeException e) {
      listener.onError(FlightStatuses.of(e, "get session options"));
    }
  }

  /** Closes the call's session; its cookie is expired in the answer. */
  void close(SessionProperties call, String user, StreamListener<CloseSessionResult> listener) {
    try {
      if (call == null || call.sessionId() == null) {
        throw notFound();
      }
      owned(call.sessionId(), user);
      byId.remove(call.sessionId());
      call.expireCookie();
      listener.onNext(new CloseSessionResult(CloseSessionResult.Status.CLOSED));
      listener.onCompleted();
    } catch (RuntimeException e) {
      listener.onError(FlightStatuses.of(e, "close the session"));
    }
  }

  /** Sessions held now (all users). */
  int size() {
    return byId.size();
  }

  private Session owned(String id, String user) {
    Session s = byId.get(id);
    if (s == null || !s.user.equals(user)) {
      throw notFound();
    }
    s.used = clock.incrementAndGet();
    return s;
  }

  private synchronized Session open(String user, SessionProperties call) {
    long held = byId.values().stream().filter(s -> s.user.equals(user)).count();
    if (held >= PER_USER) {
      byId.entrySet().stream()
          .filter(e -> e.getValue().user.equals(user))
          .min(java.util.Comparator.comparingLong(e -> e.getValue().used))
          .ifPresent(e -> byId.remove(e.getKey()));
    }
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    String id = HexFormat.of().formatHex(bytes);
    Session s = new Session(user, clock.incrementAndGet());
    byId.put(id, s);
    call.startedSession(id);
    return s;
  }

  /** Whether a MeterStore connection opens with {@code name=value} (it checks the value). */
  private boolean valid(String name, String value) {
    Properties p = new Properties();
    p.setProperty(name, value);
    try (Connection c = catalog.connection(p)) {
      return c != null;
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  private static RuntimeException notFound() {
    return CallStatus.NOT_FOUND
        .withDescription("no such session (closed or expired); set the session options again")
        .toRuntimeException();
  }

  private static SetSessionOptionsResult.Error error(SetSessionOptionsResult.ErrorValue value) {
    return new SetSessionOptionsResult.Error(value);
  }

  /** A session option's value as the property text; null for a list (not a property's shape). */
  private static final SessionOptionValueVisitor<String> AS_TEXT =
      new SessionOptionValueVisitor<>() {
        @Override
        public String visit(String value) {
          return value;
        }

        @Override
        public String visit(boolean value) {
          return Boolean.toString(value);
        }

        @Override
        public String visit(long value) {
          return Long.toString(value);
        }

        @Override
        public String visit(double value) {
          return Double.toString(value);
        }

        @Override
        public String visit(String[] value) {
          return null;
        }

        @Override
        public String visit(Void value) {
          return null;
        }
      };
}
