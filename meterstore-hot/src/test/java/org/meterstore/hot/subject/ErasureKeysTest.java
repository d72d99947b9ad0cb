package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.HotSettings;

class ErasureKeysTest {
  private static final byte[] A = filled(32, 0x41);
  private static final byte[] B = filled(40, 0x42);

  @Test
  void computesHmacSha256AsRfc4231TestCase6() {
    ErasureKeys keys = ErasureKeys.single("rfc", filled(131, 0xaa));
    byte[] mac =
        keys.hmacSha256(
            "rfc",
            "Test Using Larger Than Block-Size Key - Hash Key First"
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(HexFormat.of().formatHex(mac))
        .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  }

  @Test
  void everyKeyOfTheRingComputesItsOwnDigestAndTheCurrentOneIsNamed() {
    ErasureKeys ring = ErasureKeys.of("2026-q2", Map.of("2026-q1", A, "2026-q2", B));
    byte[] message = "X".getBytes(StandardCharsets.UTF_8);
    assertThat(ring.currentKeyId()).isEqualTo("2026-q2");
    assertThat(ring.keyIds()).containsExactly("2026-q1", "2026-q2");
    assertThat(ring.hmacSha256("2026-q1", message))
        .isNotEqualTo(ring.hmacSha256("2026-q2", message));
    assertThat(ring.hmacSha256("2026-q1", message))
        .isEqualTo(ErasureKeys.single("other-id", A).hmacSha256("other-id", message));
  }

  @Test
  void copiesTheSecretsIn() {
    byte[] secret = A.clone();
    ErasureKeys keys = ErasureKeys.single("k", secret);
    byte[] before = keys.hmacSha256("k", new byte[] {1});
    Arrays.fill(secret, (byte) 0);
    assertThat(keys.hmacSha256("k", new byte[] {1})).isEqualTo(before);
  }

  @Test
  void neverShowsASecretInToStringNorInTheSettingsThatCarryIt() {
    byte[] secret = "a-secret-nobody-may-see-in-logs!".getBytes(StandardCharsets.US_ASCII);
    ErasureKeys keys = ErasureKeys.of("k2", Map.of("k1", A, "k2", secret));
    String shown = HotSettings.DEFAULTS.withErasureKeys(keys).toString();
    assertThat(keys.toString()).isEqualTo("ErasureKeys[current=k2, keys=[k1, k2], secrets=****]");
    for (byte[] s : new byte[][] {A, secret}) {
      assertThat(shown)
          .contains("k1", "k2")
          .doesNotContain(new String(s, StandardCharsets.ISO_8859_1))
          .doesNotContain(HexFormat.of().formatHex(s))
          .doesNotContain(Base64.getEncoder().encodeToString(s))
          .doesNotContain(Arrays.toString(s));
    }
  }

  @Test
  void settingsKeepTheRingWhenAnotherSettingChanges() {
    ErasureKeys keys = ErasureKeys.single("k1", A);
    assertThat(
            HotSettings.DEFAULTS
                .withErasureKeys(keys)
                .withSchema("other")
                .withDdlLockTimeout(java.time.Duration.ZERO)
                .erasureKeys())
        .isSameAs(keys);
    assertThat(HotSettings.DEFAULTS.erasureKeys()).isNull();
  }

  @Test
  void refusesAShortSecretWithoutShowingIt() {
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> ErasureKeys.single("k1", "short-secret".getBytes(StandardCharsets.US_ASCII)));
    assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(e.getMessage())
        .contains("erasure key k1", "at least 32 bytes")
        .doesNotContain("short-secret");
  }

  @Test
  void refusesACurrentKeyOutsideTheRingABadKeyIdAndAnEmptyRing() {
    Map<String, byte[]> withNull = new HashMap<>();
    withNull.put("k1", null);
    for (Runnable bad :
        new Runnable[] {
          () -> ErasureKeys.of("k3", Map.of("k1", A)),
          () -> ErasureKeys.of("k1", Map.of("k 1", A)),
          () -> ErasureKeys.of("k1", Map.of("-k1", A)),
          () -> ErasureKeys.of("k1", Map.of()),
          () -> ErasureKeys.of("k1", null),
          () -> ErasureKeys.of("k1", withNull),
          () -> ErasureKeys.single(null, A)
        }) {
      MeterStoreException e = catchThrowableOfType(MeterStoreException.class, bad::run);
      assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
      assertThat(e.getMessage()).startsWith("Invalid ");
    }
  }

  @Test
  void refusesToComputeUnderAKeyTheRingDoesNotHold() {
    ErasureKeys keys = ErasureKeys.single("k1", A);
    assertThat(
            catchThrowableOfType(
                IllegalArgumentException.class, () -> keys.hmacSha256("k2", new byte[0])))
        .hasMessageContaining("k2");
  }

  private static byte[] filled(int length, int value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) value);
    return bytes;
  }
}
