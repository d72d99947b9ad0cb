package org.meterstore.cold.internal.catalog;

import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOAwsClientFactory;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.util.PropertyUtil;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 clients of every {@code S3FileIO} MeterStore builds, named by Iceberg's {@code
 * s3.client-factory-impl} property: the clients Iceberg's own default factory builds, from the same
 * properties in the same order, plus the AWS SDK's {@code apiCallTimeout} from {@value
 * #CALL_TIMEOUT_MS}. Iceberg 1.12 has no property for that bound, and without it a call may take
 * every attempt's idle timeout and the pauses between them, or hang for good while the store stops
 * reading an upload (a blocked socket write has no timeout).
 *
 * <p>The bound covers a call from its first byte to the response headers, every retry included;
 * reading a response body afterwards is bounded by the idle timeout of each read. Iceberg builds
 * one factory per {@code S3FileIO} (and per storage prefix) and may serialise it with the FileIO;
 * its state is the three property holders Iceberg's default factory keeps and the bound.
 */
public final class BoundedS3ClientFactory implements S3FileIOAwsClientFactory {
  /** The FileIO property carrying the whole-call bound in milliseconds. */
  public static final String CALL_TIMEOUT_MS = "meterstore.s3.call-timeout-ms";

  private static final long serialVersionUID = 1L;

  private S3FileIOProperties s3 = new S3FileIOProperties();
  private HttpClientProperties http = new HttpClientProperties();
  private AwsClientProperties aws = new AwsClientProperties();
  private Duration callTimeout;

  /** Iceberg instantiates the factory by name, then calls {@link #initialize}. */
  public BoundedS3ClientFactory() {}

  @Override
  public void initialize(Map<String, String> properties) {
    this.s3 = new S3FileIOProperties(properties);
    this.http = new HttpClientProperties(properties);
    this.aws = new AwsClientProperties(properties);
    long millis = PropertyUtil.propertyAsLong(properties, CALL_TIMEOUT_MS, -1);
    if (millis <= 0) {
      throw new IllegalArgumentException(
          "Invalid " + CALL_TIMEOUT_MS + ": " + millis + " (more than 0 ms)");
    }
    this.callTimeout = Duration.ofMillis(millis);
  }

  @Override
  public S3Client s3() {
    return S3Client.builder()
        .applyMutation(aws::applyClientRegionConfiguration)
        .applyMutation(aws::applyLegacyMd5Plugin)
        .applyMutation(http::applyHttpClientConfigurations)
        .applyMutation(s3::applyEndpointConfigurations)
        .applyMutation(s3::applyServiceConfigurations)
        .applyMutation(b -> s3.applyCredentialConfigurations(aws, b))
        .applyMutation(s3::applySignerConfiguration)
        .applyMutation(s3::applyS3AccessGrantsConfigurations)
        .applyMutation(s3::applyUserAgentConfigurations)
        .applyMutation(s3::applyRetryConfigurations)
        .applyMutation(this::bound)
        .build();
  }

  /**
   * The asynchronous client Iceberg uses only for its optional analytics accelerator; bounded the
   * same way. The CRT client ({@code s3.crt.enabled}) is not supported: MeterStore never enables
   * it.
   */
  @Override
  public S3AsyncClient s3Async() {
    return S3AsyncClient.builder()
        .applyMutation(aws::applyClientRegionConfiguration)
        .applyMutation(aws::applyClientCredentialConfigurations)
        .applyMutation(s3::applyEndpointConfigurations)
        .applyMutation(this::bound)
        .build();
  }

  /** Adds the call bound to what earlier mutations (the retry policy) put into the override. */
  private void bound(AwsClientBuilder<?, ?> builder) {
    ClientOverrideConfiguration current = builder.overrideConfiguration();
    ClientOverrideConfiguration.Builder next =
        current == null ? ClientOverrideConfiguration.builder() : current.toBuilder();
    builder.overrideConfiguration(next.apiCallTimeout(callTimeout).build());
  }
}
