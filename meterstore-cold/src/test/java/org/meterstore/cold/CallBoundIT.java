package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.config.ColdTimeouts;
import org.meterstore.cold.config.S3Settings;
import org.meterstore.cold.internal.catalog.CatalogFactory;
import org.meterstore.cold.outage.StorageFailures;
import org.meterstore.testing.ObjectStoreFront;
import org.meterstore.testing.ObjectStoreServer;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

/**
 * The {@code S3FileIO} MeterStore builds gives up on one object store call after {@code
 * call_timeout}, attempts included: against a store that reads a request and never answers, and
 * against one that stops reading an upload (a blocked socket write, which no idle timeout ends).
 * The server is real (MinIO or s3proxy, {@link ObjectStoreServer}) behind an {@link
 * ObjectStoreFront}.
 */
class CallBoundIT {
  private static final String BUCKET = "bounded";
  private static final Duration CALL = Duration.ofSeconds(2);

  /** As long an idle timeout as the bound: without the bound, three attempts take over 6 s. */
  private static final ColdTimeouts TIMEOUTS =
      new ColdTimeouts(Duration.ofSeconds(1), CALL, 3, CALL);

  /** Beside the call itself: staging the file, building the client. */
  private static final Duration MARGIN = Duration.ofSeconds(1);

  private static ObjectStoreServer server;
  private ObjectStoreFront front;
  private FileIO io;

  @BeforeAll
  static void startStore() {
    server = ObjectStoreServer.start("access", "secret-key");
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopStore() {
    server.close();
  }

  @BeforeEach
  void open() {
    front = ObjectStoreFront.before(server.endpoint());
    S3Settings s3 =
        S3Settings.pathStyle(
            front.endpoint(), ObjectStoreServer.REGION, server.accessKey(), server.secretKey());
    Map<String, String> props = CatalogFactory.s3Properties(s3, TIMEOUTS);
    io =
        CatalogUtil.loadFileIO(
            props.get(CatalogProperties.FILE_IO_IMPL),
            props,
            new org.apache.hadoop.conf.Configuration());
  }

  @AfterEach
  void close() throws Exception {
    io.close();
    front.close();
  }

  @Test
  void aReadFromAStoreThatNeverAnswersFailsWithinTheCallBound() throws Exception {
    write("s3://" + BUCKET + "/small", new byte[1024]);
    front.hang();

    long started = System.nanoTime();
    Throwable failure =
        catchThrowable(
            () -> {
              try (InputStream in = io.newInputFile("s3://" + BUCKET + "/small").newStream()) {
                in.read();
              }
            });

    assertGaveUpWithinTheBound(failure, started, "read s3://" + BUCKET + "/small");
    assertThat(front.hungRequests()).isEqualTo(1);
  }

  @Test
  void anUploadTheStoreStopsReadingFailsWithinTheCallBound() throws Exception {
    front.stopReading();
    // one request (under 48 MiB) larger than loopback's socket buffers: the write blocks
    byte[] data = new byte[24 << 20];

    long started = System.nanoTime();
    Throwable failure = catchThrowable(() -> write("s3://" + BUCKET + "/big", data));

    assertGaveUpWithinTheBound(failure, started, "upload s3://" + BUCKET + "/big");
    front.close();
    assertThat(server.keys(BUCKET)).doesNotContain("big");
  }

  private void write(String location, byte[] data) throws Exception {
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(data);
    }
  }

  private static void assertGaveUpWithinTheBound(Throwable failure, long started, String action) {
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    java.util.List<Throwable> chain = new java.util.ArrayList<>();
    for (Throwable t = failure; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    assertThat(chain).as("the causes").hasAtLeastOneElementOfType(ApiCallTimeoutException.class);
    MeterStoreException e = StorageFailures.classify(action, failure);
    assertThat(e).isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(e.isRetryable()).isTrue();
    assertThat(took).isGreaterThanOrEqualTo(CALL).isLessThan(CALL.plus(MARGIN));
  }
}
