package org.meterstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/** The stored form of a password and what the configuration refuses. */
class PasswordHashTest {
  @Test
  void aHashMatchesItsPasswordOnlyAndNeverContainsIt() {
    String text = PasswordHash.create("correct horse".toCharArray(), 10_000);
    assertThat(text).startsWith("pbkdf2-sha256:10000:").doesNotContain("correct");
    PasswordHash hash = PasswordHash.parse(text, "serve.users.a");
    assertThat(hash.matches("correct horse".toCharArray())).isTrue();
    assertThat(hash.matches("correct horsE".toCharArray())).isFalse();
    assertThat(hash.matches(new char[0])).isFalse();
    assertThat(hash.toString()).doesNotContain(text.substring(text.lastIndexOf(':')));
    // a second hash of the same password has its own salt
    assertThat(PasswordHash.create("correct horse".toCharArray(), 10_000)).isNotEqualTo(text);
  }

  @Test
  void aMalformedOrWeakHashIsAConfigurationErrorThatDoesNotQuoteIt() {
    String weak = PasswordHash.create("pw".toCharArray(), 10_000).replace(":10000:", ":1000:");
    for (String bad :
        new String[] {"plaintext-password", "md5:abc", "pbkdf2-sha256:x:y:z", weak, ""}) {
      assertThatThrownBy(() -> PasswordHash.parse(bad, "serve.users.analyst"))
          .isInstanceOfSatisfying(
              MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
          .hasMessageContaining("serve.users.analyst")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("plaintext-password"));
    }
  }

  @Test
  void theDecoyNeverMatches() {
    assertThat(PasswordHash.decoy(10_000).matches("".toCharArray())).isFalse();
  }
}
