package org.meterstore.api.id;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/** Asserts the one way an identifier refuses input: INVALID_INPUT naming the value and the rule. */
final class Refusals {
  private Refusals() {}

  /** {@code call} throws INVALID_INPUT reading {@code Invalid <field>: '<value>' (<rule>)}. */
  static void assertRefused(ThrowingCallable call, String field, String value, String rule) {
    String shown = value == null ? "null" : "'" + value + "'";
    assertThatThrownBy(call)
        .isExactlyInstanceOf(MeterStoreException.class)
        .hasMessage("Invalid " + field + ": " + shown + " (" + rule + ")")
        .satisfies(
            e -> {
              MeterStoreException error = (MeterStoreException) e;
              if (error.kind() != ErrorKind.INVALID_INPUT || error.isRetryable()) {
                throw new AssertionError("expected non-retryable INVALID_INPUT, got " + error);
              }
            });
  }
}
