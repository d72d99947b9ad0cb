package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.ColdTimeouts;
import org.meterstore.cold.config.S3Settings;
import org.meterstore.cold.internal.catalog.BoundedS3ClientFactory;
import org.meterstore.cold.internal.catalog.CatalogFactory;
import software.amazon.awssdk.services.s3.S3Client;

/** How the outage bounds reach S3FileIO's HTTP clients and retry policy and the REST client. */
class ColdTimeoutsTest {
  private static final S3Settings S3 =
      S3Settings.pathStyle(URI.create("http://127.0.0.1:9000"), "eu-central-1", "k", "s");

  @Test
  void theS3AndRestPropertiesCarryTheTimeoutsAndAttempts() {
    ColdTimeouts t =
        new ColdTimeouts(Duration.ofMillis(1500), Duration.ofSeconds(7), 2, Duration.ofSeconds(9));

    Map<String, String> s3 =
        CatalogFactory.properties(
            ColdConfig.jdbc("jdbc:postgresql://db/x", "u", "p", "s3://b/w")
                .withS3(S3)
                .withTimeouts(t));
    Map<String, String> rest =
        CatalogFactory.properties(ColdConfig.rest("http://cat", null).withTimeouts(t));

    assertThat(s3)
        .containsEntry("http-client.apache.connection-timeout-ms", "1500")
        .containsEntry("http-client.apache.socket-timeout-ms", "7000")
        .containsEntry("http-client.urlconnection.connection-timeout-ms", "1500")
        .containsEntry("s3.retry.num-retries", "1")
        .containsEntry("s3.retry.min-wait-ms", "100")
        .containsEntry("s3.retry.max-wait-ms", "1000")
        .containsEntry("s3.client-factory-impl", BoundedS3ClientFactory.class.getName())
        .containsEntry(BoundedS3ClientFactory.CALL_TIMEOUT_MS, "9000")
        .doesNotContainKey("rest.client.connection-timeout-ms");
    assertThat(rest)
        .containsEntry("rest.client.connection-timeout-ms", "1500")
        .containsEntry("rest.client.socket-timeout-ms", "7000")
        .containsEntry("rest.client.max-retries", "1");
  }

  @Test
  @SuppressWarnings("deprecation") // Iceberg 1.12 sets the SDK's RetryPolicy, deprecated there
  void theClientFactoryPutsTheCallBoundIntoTheSdkClientBesideIcebergsRetryPolicy() {
    ColdTimeouts t =
        new ColdTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), 4, Duration.ofSeconds(5));
    BoundedS3ClientFactory factory = new BoundedS3ClientFactory();
    factory.initialize(CatalogFactory.s3Properties(S3, t));

    try (S3Client client = factory.s3()) {
      var override = client.serviceClientConfiguration().overrideConfiguration();
      assertThat(override.apiCallTimeout()).contains(Duration.ofSeconds(5));
      assertThat(override.retryPolicy()).get().extracting(p -> p.numRetries()).isEqualTo(3);
    }
  }

  @Test
  void theCallBoundIsAtLeastTheRequestTimeoutAndDefaultsToThirtySeconds() {
    assertThat(ColdTimeouts.DEFAULTS.callTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(new ColdTimeouts(Duration.ofSeconds(1), Duration.ofMinutes(2), 3).callTimeout())
        .isEqualTo(Duration.ofMinutes(2));
    assertThatThrownBy(
            () ->
                new ColdTimeouts(
                    Duration.ofSeconds(1), Duration.ofSeconds(10), 3, Duration.ofSeconds(9)))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("cold call timeout")
        .hasMessageContaining("at least the request timeout");
  }

  @Test
  void aConfigWithoutTimeoutsUsesTheDefaults() {
    assertThat(ColdConfig.rest("http://cat", null).timeouts()).isEqualTo(ColdTimeouts.DEFAULTS);
  }

  @Test
  void refusesTimeoutsOutsideTheirRange() {
    assertThatThrownBy(() -> new ColdTimeouts(Duration.ZERO, Duration.ofSeconds(1), 3))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("cold connect timeout");
    assertThatThrownBy(() -> new ColdTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), 0))
        .hasMessageContaining("cold retry attempts");
  }
}
