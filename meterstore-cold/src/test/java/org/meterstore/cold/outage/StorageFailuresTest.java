package org.meterstore.cold.outage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class StorageFailuresTest {
  @Test
  void namesTheDeepestStoreFailureUnderTheWrappers() {
    SdkClientException refused = SdkClientException.create("Connection refused");
    RuntimeException wrapped =
        new RuntimeException(
            "Error while applying rule", new UncheckedIOException(new IOException(refused)));

    assertThat(StorageFailures.find(wrapped)).isSameAs(refused);
    MeterStoreException e = StorageFailures.classify("run the query", wrapped);
    assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(e.isRetryable()).isTrue();
    assertThat(e.getMessage())
        .startsWith("Cannot run the query: the cold tier does not answer (")
        .contains("Connection refused");
  }

  @Test
  void serverErrorsThrottlingAndRestCatalog5xxAreOutagesButAccessDeniedIsNot() {
    assertThat(StorageFailures.find(s3(503))).isNotNull();
    assertThat(StorageFailures.find(s3(500))).isNotNull();
    assertThat(StorageFailures.find(new ServiceFailureException("boom"))).isNotNull();
    assertThat(StorageFailures.find(s3(403))).isNull();
  }

  @Test
  void aJdbcCatalogWhoseDatabaseCannotBeReachedIsAnOutageButASqlErrorIsNot() {
    SQLException noPrimary =
        new SQLException(
            "Could not find a server with specified targetServerType: primary", "08001");
    RuntimeException wrapped = new RuntimeException("Failed to get table", noPrimary);
    assertThat(StorageFailures.find(wrapped)).isSameAs(noPrimary);
    assertThat(StorageFailures.classify("load cold table t", wrapped).isRetryable()).isTrue();
    assertThat(StorageFailures.find(new SQLException("crash", "57P02"))).isNotNull();
    assertThat(StorageFailures.find(new SQLException("syntax", "42601"))).isNull();
    assertThat(StorageFailures.find(new SQLException("no state"))).isNull();
  }

  @Test
  void aMissingFileOrAnotherErrorIsNoOutage() {
    assertThat(StorageFailures.find(new NotFoundException(new FileNotFoundException("x"), "gone")))
        .isNull();
    assertThat(StorageFailures.find(new IllegalStateException("bug"))).isNull();
    assertThat(StorageFailures.classify("x", new IllegalStateException("bug"))).isNull();
  }

  private static S3Exception s3(int status) {
    return (S3Exception) S3Exception.builder().statusCode(status).message("s3 " + status).build();
  }
}
