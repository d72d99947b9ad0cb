package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.config.CatalogKind;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.config.S3Settings;
import org.meterstore.cold.internal.catalog.CatalogFactory;

class ColdConfigTest {
  private static final S3Settings S3 =
      S3Settings.pathStyle(URI.create("http://127.0.0.1:9000"), "eu-central-1", "AKIA", "s3cr3t");

  @Test
  void theJdbcDefaultsAreFilledIn() {
    ColdConfig c = ColdConfig.jdbc("jdbc:postgresql://h/db", "u", "pw", "file:///data/wh");
    assertThat(c.kind()).isEqualTo(CatalogKind.JDBC);
    assertThat(c.namespace()).isEqualTo("meterstore");
    assertThat(c.targetFileSizeBytes()).isEqualTo(128L * 1024 * 1024);
    assertThat(c.chunkRows()).isEqualTo(100_000);
    assertThat(c.commitPolicy()).isEqualTo(CommitPolicy.DEFAULTS);
    assertThat(c.footerCacheBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(c.plannedFilesCacheBytes()).isEqualTo(64L * 1024 * 1024);
  }

  @Test
  void cacheBoundsTakeZeroForTheDefaultAndMinusOneForNone() {
    ColdConfig c = ColdConfig.jdbc("jdbc:postgresql://h/db", "u", "pw", "file:///data/wh");
    assertThat(c.withPlannedFilesCacheBytes(-1).plannedFilesCacheBytes()).isEqualTo(-1);
    assertThat(c.withPlannedFilesCacheBytes(1024).withFooterCacheBytes(-1))
        .satisfies(
            d -> {
              assertThat(d.plannedFilesCacheBytes()).isEqualTo(1024);
              assertThat(d.footerCacheBytes()).isEqualTo(-1);
            });
    assertThatThrownBy(() -> c.withPlannedFilesCacheBytes(-2))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("cold planned files cache bytes");
  }

  @Test
  void toStringNeverShowsAPasswordOrSecretKey() {
    ColdConfig c = ColdConfig.jdbc("jdbc:postgresql://h/db", "u", "pw-123", "s3://b/w").withS3(S3);
    assertThat(c.toString()).doesNotContain("pw-123").doesNotContain("s3cr3t").contains("****");
    assertThat(S3.toString()).doesNotContain("s3cr3t").contains("AKIA");
  }

  @Test
  void toStringMasksAPasswordCarriedInTheUri() {
    ColdConfig c =
        ColdConfig.jdbc(
            "jdbc:postgresql://u:url-pw@h/db?password=query-pw", "u", null, "file:///data/wh");
    assertThat(c.toString())
        .doesNotContain("url-pw")
        .doesNotContain("query-pw")
        .contains("jdbc:postgresql://****@h/db?****");
  }

  @Test
  void theCatalogPropertiesCarryTheJdbcAndS3Settings() {
    ColdConfig c = ColdConfig.jdbc("jdbc:postgresql://h/db", "u", "pw", "s3://b/w").withS3(S3);
    assertThat(CatalogFactory.properties(c))
        .containsEntry("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog")
        .containsEntry("jdbc.schema-version", "V1")
        // reconnect after a PostgreSQL restart (admin shutdown, crash shutdown, starting up)
        .containsEntry("retryable_status_codes", "57P01,57P02,57P03")
        .containsEntry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
        .containsEntry("s3.path-style-access", "true")
        .containsEntry("s3.endpoint", "http://127.0.0.1:9000")
        .containsEntry("client.region", "eu-central-1");
  }

  @Test
  void refusesSettingsThatDoNotFitTheCatalogKind() {
    assertInvalid(() -> ColdConfig.jdbc("jdbc:postgresql://h/db", "u", "pw", null), "warehouse");
    assertInvalid(() -> ColdConfig.rest(" ", null), "cold uri");
    assertInvalid(() -> ColdConfig.custom(null), "CUSTOM needs a Catalog");
    assertInvalid(
        () -> ColdConfig.jdbc("jdbc:x", null, null, "file:///w").withTargetFileSizeBytes(10),
        "1 MiB");
    assertInvalid(() -> new CommitPolicy(0, Duration.ZERO, Duration.ZERO), "at least 1");
    assertInvalid(() -> new S3Settings(null, true, "r", "key", null), "both keys");
  }

  private static void assertInvalid(Runnable r, String text) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining(text);
  }
}
