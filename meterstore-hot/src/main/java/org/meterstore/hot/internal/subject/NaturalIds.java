package org.meterstore.hot.internal.subject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.Locale;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * Natural identifiers as the registry stores, hashes and locks them. Normalising first makes {@code
 * " ab-12 "} and {@code "AB-12"} one person for registration, erasure and the suppression list
 * alike. Nothing here ever puts an identifier into a message.
 */
final class NaturalIds {
  /** The longest identifier, after normalisation. */
  static final int MAX_LENGTH = 256;

  private NaturalIds() {}

  /**
   * NFKC, surrounding white space stripped, upper case ({@code Locale.ROOT}).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} without the identifier in the message
   */
  static String normalise(String naturalId) {
    String normalised =
        naturalId == null
            ? ""
            : Normalizer.normalize(naturalId, Normalizer.Form.NFKC)
                .strip()
                .toUpperCase(Locale.ROOT);
    if (normalised.isEmpty()
        || normalised.length() > MAX_LENGTH
        || normalised.codePoints().anyMatch(Character::isISOControl)) {
      throw new MeterStoreException(
          ErrorKind.INVALID_INPUT,
          "Invalid natural id: "
              + (naturalId == null ? "null" : "(not shown)")
              + " (1 to "
              + MAX_LENGTH
              + " characters after normalisation, no control characters)");
    }
    return normalised;
  }

  /**
   * The advisory-lock key of a normalised identifier: 16 bits of a SHA-256 over schema and
   * identifier. {@code pg_locks} is readable by every role, so the key must not narrow the
   * identifier down: 16 bits leave some 150 000 candidates per key among eleven-digit ids, and
   * unrelated identifiers sharing a key merely wait for each other's short transaction.
   */
  static int lockKey(String schema, String normalised) {
    byte[] hash = sha256(schema + '\u001f' + normalised);
    return ((hash[0] & 0xff) << 8) | (hash[1] & 0xff);
  }

  /** The bytes the suppression HMAC is computed over. */
  static byte[] bytes(String normalised) {
    return normalised.getBytes(StandardCharsets.UTF_8);
  }

  /** Whether {@code text}, normalised the same way, contains the normalised identifier. */
  static boolean appearsIn(String text, String normalised) {
    return Normalizer.normalize(text, Normalizer.Form.NFKC)
        .toUpperCase(Locale.ROOT)
        .contains(normalised);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
