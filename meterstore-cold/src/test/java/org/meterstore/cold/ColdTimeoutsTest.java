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
import org.meterstore.cold.internal.catalog.CatalogFactory;

/** How the outage bounds reach S3FileIO's HTTP clients and retry policy and the REST client. */
class ColdTimeoutsTest {
  private static final S3Settings S3 =
      S3Settings.pathStyle(URI.create("http://127.0.0.1:9000"), "eu-central-1", "k", "s");

  @Test
  void theS3AndRestPropertiesCarryTheTimeoutsAndAttempts() {
    ColdTimeouts t = new ColdTimeouts(Duration.ofMillis(1500), Duration.ofSeconds(7), 2);

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
        .doesNotContainKey("rest.client.connection-timeout-ms");
    assertThat(rest)
        .containsEntry("rest.client.connection-timeout-ms", "1500")
        .containsEntry("rest.client.socket-timeout-ms", "7000")
        .containsEntry("rest.client.max-retries", "1");
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
