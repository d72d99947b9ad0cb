package org.meterstore.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The front before the object store fixture: passes the server's answers, hangs (a request read,
 * never answered), refuses, and passes again on the same port over the same objects.
 */
class ObjectStoreFrontIT {
  private ObjectStoreServer server;
  private ObjectStoreFront front;

  @BeforeEach
  void start() {
    server = ObjectStoreServer.start("access", "secret-key");
    server.createBucket("front");
    front = ObjectStoreFront.before(server.endpoint());
  }

  @AfterEach
  void stop() throws Exception {
    front.close();
    server.close();
  }

  @Test
  void passesHangsRefusesAndPassesAgainOnTheSamePort() throws Exception {
    assertThat(status()).as("an unsigned request reaches the server").isEqualTo(403);

    front.hang();
    long started = System.nanoTime();
    assertThatThrownBy(this::status).isInstanceOf(HttpTimeoutException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    assertThat(front.hungRequests()).isEqualTo(1);

    front.refuse();
    assertThatThrownBy(this::status).isInstanceOf(ConnectException.class);

    front.pass();
    assertThat(status()).isEqualTo(403);
    assertThat(server.keys("front")).isEmpty();
  }

  @Test
  void hangsFromTheFirstMatchingRequest() throws Exception {
    front.hangAt(line -> line.startsWith("GET /front/data/"));
    assertThat(status()).isEqualTo(403);

    assertThatThrownBy(() -> status("/front/data/x")).isInstanceOf(HttpTimeoutException.class);
    assertThat(front.hanging()).isTrue();
    assertThatThrownBy(this::status).isInstanceOf(HttpTimeoutException.class);
    assertThat(front.hungRequests()).isEqualTo(2);
  }

  private int status() throws Exception {
    return status("/front/");
  }

  private int status(String path) throws Exception {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1))
            .build();
    URI uri = front.endpoint().resolve(path);
    try {
      return http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).GET().build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (SocketTimeoutException e) {
      throw new HttpTimeoutException(e.getMessage());
    }
  }
}
