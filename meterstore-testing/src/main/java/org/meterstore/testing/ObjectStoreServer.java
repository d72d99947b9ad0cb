package org.meterstore.testing;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.MinIOContainer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3-compatible server for one test: MinIO in a Testcontainers container when a Docker engine
 * answers, otherwise s3proxy in this JVM (in memory, on 127.0.0.1) — the same choice {@link
 * PostgresExtension} makes for PostgreSQL, and the same tests either way. {@value #MODE_VARIABLE}
 * ({@code s3proxy} or {@code minio}) skips the Docker probe. Which server was chosen is logged.
 *
 * <p>Buckets are created and listed with the AWS SDK, as a user would. Both servers speak
 * path-style requests signed for {@link #REGION}. A module using this fixture declares {@code
 * org.gaul:s3proxy} (with the root pom's exclusions) and {@code software.amazon.awssdk:s3} and
 * {@code apache5-client} in test scope; this module keeps them optional so that modules without S3
 * tests do not carry them. Not thread-safe; close it after the test.
 */
public final class ObjectStoreServer implements AutoCloseable {
  /** {@code s3proxy}, {@code minio} or {@code auto} (the default: MinIO when Docker answers). */
  public static final String MODE_VARIABLE = "METERSTORE_TEST_OBJECT_STORE";

  /** The MinIO image used where Docker answers. */
  public static final String IMAGE = "minio/minio:RELEASE.2023-09-04T19-57-37Z";

  /** The signing region both servers accept. */
  public static final String REGION = "us-east-1";

  private static final Logger LOG = LoggerFactory.getLogger(ObjectStoreServer.class);

  private final String kind;
  private final URI endpoint;
  private final String accessKey;
  private final String secretKey;
  private final AutoCloseable owned;

  private ObjectStoreServer(
      String kind, URI endpoint, String accessKey, String secretKey, AutoCloseable owned) {
    this.kind = kind;
    this.endpoint = endpoint;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.owned = owned;
  }

  /**
   * Starts a server accepting {@code accessKey} and {@code secretKey} (MinIO wants at least 3 and 8
   * characters).
   */
  public static ObjectStoreServer start(String accessKey, String secretKey) {
    Objects.requireNonNull(accessKey, "accessKey");
    Objects.requireNonNull(secretKey, "secretKey");
    String mode = System.getenv().getOrDefault(MODE_VARIABLE, "auto").toLowerCase(Locale.ROOT);
    if (mode.equals("minio") || (mode.equals("auto") && Docker.available())) {
      return minio(accessKey, secretKey);
    }
    return s3proxy(accessKey, secretKey);
  }

  @SuppressWarnings("resource") // stopped through this server's close()
  private static ObjectStoreServer minio(String accessKey, String secretKey) {
    MinIOContainer container =
        new MinIOContainer(IMAGE).withUserName(accessKey).withPassword(secretKey);
    container.start();
    LOG.info("Started MinIO in Docker ({}) at {}", IMAGE, container.getS3URL());
    return new ObjectStoreServer(
        "minio", URI.create(container.getS3URL()), accessKey, secretKey, container::stop);
  }

  private static ObjectStoreServer s3proxy(String accessKey, String secretKey) {
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(new TransientNio2BlobStore())
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
            .build();
    try {
      proxy.start();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start s3proxy: " + e.getMessage(), e);
    }
    URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    LOG.info("Started in-process s3proxy at {} (no Docker engine answered)", endpoint);
    return new ObjectStoreServer("s3proxy", endpoint, accessKey, secretKey, proxy::stop);
  }

  /** {@code minio} or {@code s3proxy}. */
  public String kind() {
    return kind;
  }

  /** Where the server listens, e.g. {@code http://127.0.0.1:41234}. */
  public URI endpoint() {
    return endpoint;
  }

  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  /** Creates {@code bucket}. */
  public void createBucket(String bucket) {
    try (S3Client s3 = client()) {
      s3.createBucket(b -> b.bucket(bucket));
    }
  }

  /** The keys of every object in {@code bucket}, in the server's order. */
  public List<String> keys(String bucket) {
    try (S3Client s3 = client()) {
      return s3.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream()
          .map(S3Object::key)
          .toList();
    }
  }

  private S3Client client() {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .forcePathStyle(true)
        .region(Region.of(REGION))
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  @Override
  public void close() {
    try {
      owned.close();
    } catch (Exception e) {
      LOG.warn("Cannot stop the {} object store: {}", kind, e.getMessage());
    }
  }
}
