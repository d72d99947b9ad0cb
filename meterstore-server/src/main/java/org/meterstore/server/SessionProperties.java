package org.meterstore.server;

import java.util.Locale;
import java.util.Properties;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * The {@code meterstore.*} connection properties a client sends with a call (Arrow's Flight SQL
 * JDBC driver sends every URL property it does not know itself as a header): the read mode, the
 * snapshot or tag, {@code meterstore.system_at}. The statement runs on a MeterStore connection
 * opened with them, which validates them (docs/querying.md).
 */
final class SessionProperties implements FlightServerMiddleware {
  static final Key<SessionProperties> KEY = Key.of("meterstore-session");

  /** The properties a call may set (MeterStore's read-mode and system properties). */
  private static final java.util.Set<String> ALLOWED =
      java.util.Set.of(
          "meterstore.mode",
          "meterstore.snapshot_id",
          "meterstore.tag",
          "meterstore.instant",
          "meterstore.version_ceiling",
          "meterstore.system_at");

  private final Properties properties;

  private SessionProperties(Properties properties) {
    this.properties = properties;
  }

  /** The call's properties (a copy). */
  Properties properties() {
    Properties copy = new Properties();
    copy.putAll(properties);
    return copy;
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

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
      return new SessionProperties(p);
    }
  }
}
