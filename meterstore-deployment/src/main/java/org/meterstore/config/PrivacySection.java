package org.meterstore.config;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.meterstore.api.privacy.Retention;
import org.meterstore.hot.subject.ErasureKeys;

/**
 * The {@code [privacy]} section: the suppression list's key ring and the retention sweep.
 * Immutable; {@link #toString()} shows key ids only.
 *
 * @param currentErasureKey the id of the key that writes new suppression entries, or null when the
 *     ring is empty
 * @param erasureKeys every key of the ring by id; each secret is base64 of at least 32 bytes
 * @param anonymiseAfterYears the § 60 Abs. 6 MsbG sweep's calendar years (at least 1), or 0 for no
 *     sweep (the default)
 * @param retentionReason the legal reason recorded with every swept erasure (default {@value
 *     #DEFAULT_REASON})
 */
public record PrivacySection(
    String currentErasureKey,
    Map<String, Secret> erasureKeys,
    int anonymiseAfterYears,
    String retentionReason) {

  /** The default retention reason. */
  public static final String DEFAULT_REASON = "§ 60 Abs. 6 MsbG";

  /** No keys, no sweep. */
  public static final PrivacySection DEFAULTS = new PrivacySection(null, Map.of(), 0, null);

  /** Validates the ring (through {@link ErasureKeys}) and the sweep ({@code CONFIG}). */
  public PrivacySection {
    erasureKeys = Map.copyOf(erasureKeys == null ? Map.of() : erasureKeys);
    retentionReason =
        retentionReason == null || retentionReason.isBlank() ? DEFAULT_REASON : retentionReason;
    if (anonymiseAfterYears < 0 || anonymiseAfterYears > 100) {
      throw ConfigErrors.config(
          "Invalid privacy.anonymise_after_years: "
              + anonymiseAfterYears
              + " (0 for no sweep, or 1 to 100 calendar years)");
    }
    if (erasureKeys.isEmpty() && currentErasureKey != null) {
      throw ConfigErrors.config(
          "Invalid privacy.current_erasure_key: '"
              + currentErasureKey
              + "' (no [privacy.erasure_keys] are declared)");
    }
    ring(currentErasureKey, erasureKeys);
  }

  /** The key ring, or null when none is configured. */
  public ErasureKeys keyRing() {
    return ring(currentErasureKey, erasureKeys);
  }

  /** The retention rule of the sweep, when one is configured. */
  public Optional<Retention> retention() {
    return anonymiseAfterYears == 0
        ? Optional.empty()
        : Optional.of(Retention.calendarYears(anonymiseAfterYears));
  }

  private static ErasureKeys ring(String current, Map<String, Secret> keys) {
    if (keys.isEmpty()) {
      return null;
    }
    Map<String, byte[]> secrets = new LinkedHashMap<>();
    for (Map.Entry<String, Secret> e : keys.entrySet()) {
      try {
        secrets.put(e.getKey(), Base64.getDecoder().decode(e.getValue().reveal().trim()));
      } catch (IllegalArgumentException bad) {
        throw ConfigErrors.config(
            "Invalid privacy.erasure_keys."
                + e.getKey()
                + ": (secret not shown) (base64 of at least 32 bytes, e.g. openssl rand -base64 32)");
      }
    }
    String currentId =
        current == null && keys.size() == 1 ? keys.keySet().iterator().next() : current;
    return ConfigErrors.asConfig("privacy", () -> ErasureKeys.of(currentId, secrets));
  }

  @Override
  public String toString() {
    return "PrivacySection[currentErasureKey="
        + currentErasureKey
        + ", erasureKeys="
        + new java.util.TreeSet<>(erasureKeys.keySet())
        + " (secrets ****), anonymiseAfterYears="
        + anonymiseAfterYears
        + ", retentionReason="
        + retentionReason
        + "]";
  }
}
