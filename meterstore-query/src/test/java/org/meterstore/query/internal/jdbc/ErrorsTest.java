package org.meterstore.query.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientException;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import software.amazon.awssdk.core.exception.SdkClientException;

class ErrorsTest {
  @Test
  void aStoreFailureInsideAPlannerRuleBecomesTheRetryableStorageError() {
    RuntimeException planner =
        new RuntimeException(
            "Error while applying rule MeterTierRouting, args [rel#12:MeterTableScan]",
            SdkClientException.create("Unable to execute HTTP request: Connection refused"));

    Throwable sql = Errors.translate(planner);

    assertThat(sql).isInstanceOf(SQLTransientException.class);
    assertThat(((SQLException) sql).getSQLState()).isEqualTo("08006");
    assertThat(sql.getMessage()).contains("the cold tier does not answer", "[STORAGE]");
    MeterStoreException cause = (MeterStoreException) sql.getCause();
    assertThat(cause.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(cause.isRetryable()).isTrue();
  }

  @Test
  void aPlanningErrorWithoutAStoreFailureStaysAsItWas() {
    RuntimeException planner =
        new RuntimeException("Error while applying rule X", new IllegalStateException("bug"));

    assertThat(Errors.translate(planner)).isSameAs(planner);
  }
}
