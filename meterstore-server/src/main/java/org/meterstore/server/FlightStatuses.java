package org.meterstore.server;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Failures as the Flight status a client gets: MeterStore's message, never a stack trace. */
final class FlightStatuses {
  private static final Logger LOG = LoggerFactory.getLogger(FlightStatuses.class);

  private FlightStatuses() {}

  /** {@code e} as a Flight status: MeterStore's message, no stack trace; logged here. */
  static FlightRuntimeException of(Throwable e, String what) {
    if (e instanceof FlightRuntimeException f) {
      return f;
    }
    Throwable cause = e;
    org.meterstore.api.MeterStoreException typed = null;
    while (cause != null) {
      if (cause instanceof org.meterstore.api.MeterStoreException m) {
        typed = m;
        break;
      }
      cause = cause.getCause();
    }
    String message = typed != null ? typed.getMessage() : firstLine(e.getMessage());
    LOG.info("Refused to {}: {}", what, message);
    CallStatus status =
        typed != null && typed.isRetryable() ? CallStatus.UNAVAILABLE : CallStatus.INVALID_ARGUMENT;
    return status
        .withDescription(message == null ? what + " failed" : message)
        .toRuntimeException();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return null;
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
