package org.meterstore.hot.write;

import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * A write refused because a reading lies in an archived window: below the floor, or in a window
 * whose partition is detached. Such readings belong to the cold tier ({@code INVALID_INPUT}, not
 * retryable as a hot write).
 */
public class BelowFloorException extends MeterStoreException {
  private static final long serialVersionUID = 1L;

  /** A refusal with its message. */
  public BelowFloorException(String message) {
    super(ErrorKind.INVALID_INPUT, message);
  }
}
