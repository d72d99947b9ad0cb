package org.meterstore.config;

import java.net.URI;
import org.meterstore.cold.config.S3Settings;

/**
 * The {@code [cold.s3]} section: S3-compatible object storage for the warehouse. Immutable; {@link
 * #toString()} shows no secret key.
 *
 * @param endpoint the endpoint, e.g. {@code http://127.0.0.1:9000}; null for AWS's default
 * @param pathStyleAccess whether buckets are addressed as {@code endpoint/bucket} (default true)
 * @param region the signing region, required
 * @param accessKeyId the access key id, or null for the AWS SDK's default credential chain
 * @param secretAccessKey the secret key, set exactly when {@code accessKeyId} is
 */
public record S3Section(
    URI endpoint,
    boolean pathStyleAccess,
    String region,
    String accessKeyId,
    Secret secretAccessKey) {

  /** Validates through {@link S3Settings}. */
  public S3Section {
    toSettings(endpoint, pathStyleAccess, region, accessKeyId, secretAccessKey);
  }

  /** The cold module's settings. */
  public S3Settings settings() {
    return toSettings(endpoint, pathStyleAccess, region, accessKeyId, secretAccessKey);
  }

  private static S3Settings toSettings(
      URI endpoint, boolean pathStyle, String region, String keyId, Secret secret) {
    return ConfigErrors.asConfig(
        "cold.s3",
        () -> new S3Settings(endpoint, pathStyle, region, keyId, Secret.revealOrNull(secret)));
  }
}
