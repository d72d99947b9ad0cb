package org.meterstore.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Test assertion: a call is refused as {@code INVALID_INPUT} with a message naming the rule. */
public final class InvalidInput {
  private InvalidInput() {}

  /** Asserts {@code call} throws a non-retryable INVALID_INPUT error containing every fragment. */
  public static void assertInvalid(ThrowingCallable call, String... fragments) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(MeterStoreException.class, InvalidInput::isInvalidInput)
        .hasMessageStartingWith("Invalid ")
        .hasMessageContainingAll(fragments);
  }

  /** Asserts {@code call} throws INVALID_INPUT reading exactly {@code message}. */
  public static void assertInvalidMessage(ThrowingCallable call, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(MeterStoreException.class, InvalidInput::isInvalidInput)
        .hasMessage(message);
  }

  /** Asserts INVALID_INPUT reading exactly {@code Invalid <field>: '<value>' (<rule>)}. */
  public static void assertRefused(ThrowingCallable call, String field, String value, String rule) {
    String shown = value == null ? "null" : "'" + value + "'";
    assertInvalidMessage(call, "Invalid " + field + ": " + shown + " (" + rule + ")");
  }

  private static void isInvalidInput(MeterStoreException e) {
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.isRetryable()).isFalse();
  }
}
