package org.meterstore.server;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * A user's password as the configuration stores it: PBKDF2 with HMAC-SHA256 (the JDK's), {@code
 * pbkdf2-sha256:<iterations>:<salt>:<hash>} with salt and hash in Base64. {@code meterstore serve
 * --hash-password} makes one; the password itself is never stored.
 */
public final class PasswordHash {
  private static final String PREFIX = "pbkdf2-sha256";
  private static final String ALGORITHM = "PBKDF2WithHmacSHA256";

  /** The iterations a new hash uses (OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256). */
  public static final int ITERATIONS = 600_000;

  private static final int SALT_BYTES = 16;
  private static final int HASH_BITS = 256;

  private final int iterations;
  private final byte[] salt;
  private final byte[] hash;

  private PasswordHash(int iterations, byte[] salt, byte[] hash) {
    this.iterations = iterations;
    this.salt = salt;
    this.hash = hash;
  }

  /** A new hash of {@code password} with a random salt. */
  public static String create(char[] password) {
    return create(password, ITERATIONS);
  }

  /**
   * A new hash with {@code iterations} (tests use fewer; the configuration accepts any ≥ 10,000).
   */
  static String create(char[] password, int iterations) {
    byte[] salt = new byte[SALT_BYTES];
    new SecureRandom().nextBytes(salt);
    byte[] hash = derive(password, salt, iterations);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return PREFIX
        + ":"
        + iterations
        + ":"
        + b64.encodeToString(salt)
        + ":"
        + b64.encodeToString(hash);
  }

  /**
   * The stored hash {@code text}.
   *
   * @throws MeterStoreException {@code CONFIG} naming what is wrong (never the text itself)
   */
  public static PasswordHash parse(String text, String where) {
    String[] parts = text == null ? new String[0] : text.split(":");
    if (parts.length != 4 || !parts[0].equals(PREFIX)) {
      throw invalid(where, "expected " + PREFIX + ":<iterations>:<salt>:<hash>");
    }
    try {
      int iterations = Integer.parseInt(parts[1]);
      if (iterations < 10_000) {
        throw invalid(where, "at least 10000 iterations");
      }
      Base64.Decoder b64 = Base64.getDecoder();
      byte[] salt = b64.decode(parts[2]);
      byte[] hash = b64.decode(parts[3]);
      if (salt.length < 8 || hash.length * 8 != HASH_BITS) {
        throw invalid(where, "a salt of at least 8 bytes and a 256-bit hash");
      }
      return new PasswordHash(iterations, salt, hash);
    } catch (IllegalArgumentException e) {
      throw invalid(where, "numbers and Base64 where the format says");
    }
  }

  /** Whether {@code password} is the one hashed; takes the same time whatever it is. */
  public boolean matches(char[] password) {
    return MessageDigest.isEqual(hash, derive(password, salt, iterations));
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
    try {
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no " + ALGORITHM, e);
    } finally {
      spec.clearPassword();
    }
  }

  private static MeterStoreException invalid(String where, String expected) {
    return new MeterStoreException(
        ErrorKind.CONFIG, "Invalid " + where + ": not a password hash (" + expected + ")");
  }

  /** The iterations this hash was made with. */
  int iterations() {
    return iterations;
  }

  /**
   * A hash of a random password with {@code iterations}: checked against when a user is unknown, so
   * a refusal takes as long as for a known user with a wrong password, and never matches.
   */
  static PasswordHash decoy(int iterations) {
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    char[] password = Base64.getEncoder().encodeToString(random).toCharArray();
    return parse(create(password, Math.max(10_000, iterations)), "decoy");
  }

  @Override
  public String toString() {
    return PREFIX + ":" + iterations + ":…";
  }
}
