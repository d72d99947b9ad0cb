package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cli.output.ExitCode;

class FailuresTest {
  @Test
  void retryableMeterStoreFailuresExitWith75() {
    MeterStoreException lock = new MeterStoreException(ErrorKind.LOCK_TIMEOUT, "Cannot detach");
    assertThat(lock.isRetryable()).isTrue();
    assertThat(Failures.exitCode(lock)).isEqualTo(ExitCode.RETRYABLE);
    assertThat(Failures.exitCode(new RuntimeException("wrapped", lock)))
        .isEqualTo(ExitCode.RETRYABLE);
  }

  @Test
  void otherFailuresExitWith1() {
    assertThat(Failures.exitCode(MeterStoreException.invalid("table", "x", "a declared table")))
        .isEqualTo(ExitCode.ERROR);
    assertThat(Failures.exitCode(new IllegalStateException("boom"))).isEqualTo(ExitCode.ERROR);
    assertThat(Failures.exitCode(new SQLException("syntax", "42601"))).isEqualTo(ExitCode.ERROR);
  }

  @Test
  void transientSqlFailuresAreRetryable() {
    assertThat(Failures.exitCode(new SQLTransientConnectionException("gone")))
        .isEqualTo(ExitCode.RETRYABLE);
    assertThat(Failures.exitCode(new SQLException("refused", "08001")))
        .isEqualTo(ExitCode.RETRYABLE);
  }

  @Test
  void theMessageIsOneLineAndPrefersTheMeterStoreCause() {
    MeterStoreException cause =
        new MeterStoreException(ErrorKind.CONFIG, "Cannot read meterstore.toml: no such file");
    assertThat(Failures.message(new SQLException("Error while executing\nat line 2", cause)))
        .isEqualTo("Cannot read meterstore.toml: no such file");
    assertThat(Failures.message(new SQLException("Error while executing\nat line 2")))
        .isEqualTo("Error while executing");
  }
}
