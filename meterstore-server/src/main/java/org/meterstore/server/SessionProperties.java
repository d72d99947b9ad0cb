package org.meterstore.server;

import java.util.Locale;
import java.util.Properties;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * What a call brings about its session: the {@code meterstore.*} connection properties sent as
 * headers (Arrow's Flight SQL JDBC driver sends every URL property it does not know itself as a
 * header) — the read mode, the snapshot or tag, {@code meterstore.system_at} — and the session
 * cookie {@value #COOKIE} of a {@link Sessions} session. The statement runs on a MeterStore
 * connection opened with the session's options and the headers, which validates them
 * (docs/querying.md). Sets the cookie in the answer of the call that opened a session, and expires
 * it in the answer of the call that closed one.
 */
final class SessionProperties implements FlightServerMiddleware {
  static final Key<SessionProperties> KEY = Key.of("meterstore-session");

  /** The session cookie's name (the one Flight SQL clients carry). */
  static final String COOKIE = "arrow_flight_session_id";

  /** The properties a call may set (MeterStore's read-mode and system properties). */
  static final java.util.Set<String> ALLOWED =
      java.util.Set.of(
          "meterstore.mode",
          "meterstore.snapshot_id",
          "meterstore.tag",
          "meterstore.instant",
          "meterstore.version_ceiling",
          "meterstore.system_at");

  private final Properties properties;
  private final String sessionId;
  private volatile String started;
  private volatile boolean expire;

  private SessionProperties(Properties properties, String sessionId) {
    this.properties = properties;
    this.sessionId = sessionId;
  }

  /** The session the call's cookie names, or the one the call opened; null for neither. */
  String sessionId() {
    return started != null ? started : sessionId;
  }

  /** Records that this call opened session {@code id}: its answer sets the cookie. */
  void startedSession(String id) {
    this.started = id;
  }

  /** Records that this call closed its session: its answer expires the cookie. */
  void expireCookie() {
    this.expire = true;
  }

  /** The call's properties (a copy). */
  Properties properties() {
    Properties copy = new Properties();
    copy.putAll(properties);
    return copy;
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {
    if (started != null) {
      outgoingHeaders.insert("set-cookie", COOKIE + "=" + started);
    } else if (expire && sessionId != null) {
      outgoingHeaders.insert("set-cookie", COOKIE + "=" + sessionId + "; Max-Age=0");
    }
  }

  @Override
  public void onCallCompleted(CallStatus status) {}

  @Override
  public void onCallErrored(Throwable err) {}

  /** Reads the properties of every call. */
  static final class Factory implements FlightServerMiddleware.Factory<SessionProperties> {
    @Override
    public SessionProperties onCallStarted(
        CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      Properties p = new Properties();
      for (String key : incomingHeaders.keys()) {
        String name = key.toLowerCase(Locale.ROOT);
        if (name.startsWith("meterstore.")) {
          if (!ALLOWED.contains(name)) {
            throw CallStatus.INVALID_ARGUMENT
                .withDescription("unknown connection property " + name)
                .toRuntimeException();
          }
          p.setProperty(name, incomingHeaders.get(key));
        }
      }
      return new SessionProperties(p, cookie(incomingHeaders));
    }

    /** The session id of the call's {@value #COOKIE} cookie, or null. */
    private static String cookie(CallHeaders headers) {
      if (!headers.containsKey("cookie")) {
        return null;
      }
      for (String header : headers.getAll("cookie")) {
        for (String pair : header.split(";")) {
          int eq = pair.indexOf('=');
          if (eq > 0 && pair.substring(0, eq).strip().equals(COOKIE)) {
            String value = pair.substring(eq + 1).strip();
            return value.isEmpty() ? null : value;
          }
        }
      }
      return null;
    }
  }
}
