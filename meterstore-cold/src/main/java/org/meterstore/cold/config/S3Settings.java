package org.meterstore.cold.config;

import java.net.URI;
import org.meterstore.api.MeterStoreException;

/**
 * How to reach S3-compatible object storage through Iceberg's {@code S3FileIO}.
 *
 * <p>{@link #toString()} never shows the secret key.
 *
 * @param endpoint the S3 endpoint, e.g. {@code http://127.0.0.1:9000} for MinIO; null for AWS's
 *     regional default
 * @param pathStyleAccess whether buckets are addressed as {@code endpoint/bucket} (MinIO, most
 *     S3-compatible servers) rather than {@code bucket.endpoint}
 * @param region the signing region, e.g. {@code eu-central-1}; required
 * @param accessKeyId the access key id, or null to use the AWS SDK's default credential chain
 * @param secretAccessKey the secret key; required exactly when {@code accessKeyId} is set
 */
public record S3Settings(
    URI endpoint,
    boolean pathStyleAccess,
    String region,
    String accessKeyId,
    String secretAccessKey) {

  /** Checks that the region is set and that the key pair is complete or absent. */
  public S3Settings {
    if (region == null || region.isBlank()) {
      throw MeterStoreException.invalid("s3 region", region, "required, e.g. eu-central-1");
    }
    if ((accessKeyId == null) != (secretAccessKey == null)) {
      throw MeterStoreException.invalid(
          "s3 credentials", accessKeyId == null ? null : accessKeyId, "set both keys or neither");
    }
  }

  /** Settings for a MinIO-like server: explicit endpoint, path-style, static keys. */
  public static S3Settings pathStyle(
      URI endpoint, String region, String accessKeyId, String secretAccessKey) {
    return new S3Settings(endpoint, true, region, accessKeyId, secretAccessKey);
  }

  @Override
  public String toString() {
    return "S3Settings[endpoint="
        + endpoint
        + ", pathStyleAccess="
        + pathStyleAccess
        + ", region="
        + region
        + ", accessKeyId="
        + accessKeyId
        + ", secretAccessKey="
        + (secretAccessKey == null ? "null" : "****")
        + "]";
  }
}
