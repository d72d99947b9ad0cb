package org.meterstore.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorKindTest {
  @Test
  void onlyLockTimeoutsAndStorageFailuresAreRetryableByDefault() {
    assertThat(ErrorKind.values())
        .filteredOn(ErrorKind::retryableByDefault)
        .containsExactlyInAnyOrder(ErrorKind.LOCK_TIMEOUT, ErrorKind.STORAGE);
    assertThat(new MeterStoreException(ErrorKind.LOCK_TIMEOUT, "x").isRetryable()).isTrue();
    assertThat(new MeterStoreException(ErrorKind.CONFIG, "x").isRetryable()).isFalse();
  }

  @Test
  void aQueryErrorMayBeRetryableWhenStorageWasUnreachable() {
    MeterStoreException e =
        new MeterStoreException(ErrorKind.QUERY, true, "Cannot scan lastgang: timeout", null);
    assertThat(e.kind()).isEqualTo(ErrorKind.QUERY);
    assertThat(e.isRetryable()).isTrue();
  }

  @Test
  void invalidInputMessagesNameFieldValueAndRule() {
    MeterStoreException e = MeterStoreException.invalid("unit", "KW", "one of KWH, M3");
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e).hasMessage("Invalid unit: 'KW' (one of KWH, M3)");
  }
}
