package org.meterstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/** Who may connect how: the combinations the server refuses to start with. */
class ServerSettingsTest {
  private static final String HASH = PasswordHash.create("pw".toCharArray(), 10_000);
  private static final Duration TIMEOUT = Duration.ofMinutes(1);

  private static ServerSettings settings(
      String host, Path cert, Path key, Map<String, String> users, boolean anonymous) {
    return new ServerSettings(host, 0, cert, key, users, Map.of(), anonymous, TIMEOUT);
  }

  @Test
  void plaintextIsLoopbackOnly() {
    assertThat(settings("127.0.0.1", null, null, Map.of("a", HASH), false).tls()).isFalse();
    assertThat(settings("localhost", null, null, Map.of("a", HASH), false).host())
        .isEqualTo("localhost");
    assertRefused(() -> settings("0.0.0.0", null, null, Map.of("a", HASH), false), "serve.host");
    assertRefused(() -> settings("192.0.2.7", null, null, Map.of("a", HASH), false), "TLS");
  }

  @Test
  void noUsersOnlyWhenAnonymousIsAllowedOnLoopback() {
    assertRefused(() -> settings("127.0.0.1", null, null, Map.of(), false), "serve.users");
    assertThat(settings("127.0.0.1", null, null, Map.of(), true).users()).isEmpty();
  }

  @Test
  void certificateAndKeyComeTogetherAndMustBeReadable() {
    Path missing = Path.of("/nonexistent/server.crt");
    assertRefused(
        () -> settings("127.0.0.1", missing, null, Map.of("a", HASH), false), "both, or neither");
    assertRefused(
        () -> settings("0.0.0.0", missing, missing, Map.of("a", HASH), false), "readable PEM");
  }

  @Test
  void tableRestrictionsNameConfiguredUsersAndHashesAreChecked() {
    assertRefused(
        () ->
            new ServerSettings(
                "127.0.0.1",
                0,
                null,
                null,
                Map.of("a", HASH),
                Map.of("b", Set.of("lastgang")),
                false,
                TIMEOUT),
        "serve.tables");
    assertRefused(
        () -> settings("127.0.0.1", null, null, Map.of("a", "secret"), false), "serve.users.a");
  }

  private static void assertRefused(Runnable r, String part) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
        .hasMessageContaining(part);
  }
}
