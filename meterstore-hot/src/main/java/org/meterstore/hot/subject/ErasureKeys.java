package org.meterstore.hot.subject;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The erasure secret as a key ring: the secrets under which erased identifiers are put on the
 * suppression list as {@code HMAC-SHA256(secret, normalised identifier)}. The current key writes
 * new entries; every key in the ring, current or retired, is tried when a registration is checked,
 * so rotating the key keeps the old entries working as long as their key stays in the ring. An
 * entry whose key was removed from the ring no longer matches anything and is reported by {@link
 * Subjects#suppressionKeysMissing()}.
 *
 * <p>Immutable and thread-safe. The secrets are copied in and never handed out; {@link #toString()}
 * shows the key ids only. Validation fails with {@link ErrorKind#CONFIG}.
 */
public final class ErasureKeys {
  /** The shortest secret accepted: 32 bytes, SHA-256's output length (RFC 2104's minimum). */
  public static final int MIN_SECRET_BYTES = 32;

  private static final String ALGORITHM = "HmacSHA256";
  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

  private final String currentKeyId;
  private final Map<String, SecretKeySpec> keys;

  private ErasureKeys(String currentKeyId, Map<String, SecretKeySpec> keys) {
    this.currentKeyId = currentKeyId;
    this.keys = keys;
  }

  /**
   * A key ring.
   *
   * @param currentKeyId the key that writes new suppression entries; must be in {@code secrets}
   * @param secrets every key by id: ids are 1 to 64 characters of letters, digits, {@code _},
   *     {@code .} and {@code -} (stored with each entry); secrets at least {@value
   *     #MIN_SECRET_BYTES} bytes
   * @throws MeterStoreException {@code CONFIG} naming the key id, never showing a secret
   */
  public static ErasureKeys of(String currentKeyId, Map<String, byte[]> secrets) {
    if (secrets == null || secrets.isEmpty()) {
      throw config("erasure keys", "(none)", "at least one key");
    }
    Map<String, SecretKeySpec> keys = new TreeMap<>();
    for (Map.Entry<String, byte[]> e : secrets.entrySet()) {
      String id = e.getKey();
      if (id == null || !KEY_ID.matcher(id).matches()) {
        throw config(
            "erasure key id",
            id,
            "1 to 64 letters, digits, _ . or -, starting with one of the two");
      }
      byte[] secret = e.getValue();
      if (secret == null || secret.length < MIN_SECRET_BYTES) {
        throw config(
            "erasure key " + id,
            "(secret not shown)",
            "a secret of at least " + MIN_SECRET_BYTES + " bytes");
      }
      keys.put(id, new SecretKeySpec(secret, ALGORITHM));
    }
    if (currentKeyId == null || !keys.containsKey(currentKeyId)) {
      throw config(
          "current erasure key", currentKeyId, "one of the ring's key ids " + keys.keySet());
    }
    return new ErasureKeys(currentKeyId, Collections.unmodifiableMap(keys));
  }

  /** A ring of one key, which is current. */
  public static ErasureKeys single(String keyId, byte[] secret) {
    Map<String, byte[]> ring = new HashMap<>();
    ring.put(keyId, secret);
    return of(keyId, ring);
  }

  /** The id of the key that writes new suppression entries. */
  public String currentKeyId() {
    return currentKeyId;
  }

  /** Every key id of the ring, sorted. */
  public SortedSet<String> keyIds() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(keys.keySet()));
  }

  /**
   * {@code HMAC-SHA256} of {@code message} under the key {@code keyId}.
   *
   * @throws IllegalArgumentException when the ring has no such key
   */
  public byte[] hmacSha256(String keyId, byte[] message) {
    SecretKeySpec key = keys.get(keyId);
    if (key == null) {
      throw new IllegalArgumentException("Invalid erasure key id: " + keyId + " (not in the ring)");
    }
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(message);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable in this JVM", e);
    }
  }

  /** The key ids and which is current; never a secret. */
  @Override
  public String toString() {
    return "ErasureKeys[current=" + currentKeyId + ", keys=" + keys.keySet() + ", secrets=****]";
  }

  private static MeterStoreException config(String field, Object value, String rule) {
    String shown = value == null ? "null" : "'" + value + "'";
    return new MeterStoreException(
        ErrorKind.CONFIG, "Invalid " + field + ": " + shown + " (" + rule + ")");
  }
}
