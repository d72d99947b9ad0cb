package org.meterstore.api.calendar;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/** Asserts that a call is refused with a typed INVALID_INPUT error and an exact message. */
final class Refusals {
  private Refusals() {}

  static void assertInvalid(ThrowingCallable call, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e ->
                org.assertj.core.api.Assertions.assertThat(e.kind())
                    .isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessage(message);
  }
}
