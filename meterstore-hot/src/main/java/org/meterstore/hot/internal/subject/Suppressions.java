package org.meterstore.hot.internal.subject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.hot.subject.ErasureKeys;

/**
 * The suppression list: {@code HMAC-SHA256(key, normalised identifier)} in hex, with the key's id.
 * A keyed hash rather than a plain one, because identifiers are few enough to enumerate: without
 * the secret, the list cannot be tested against candidate identifiers. Every key of the ring is
 * tried on lookup (rotation keeps old entries working); only the current key writes. All work runs
 * in the caller's transaction.
 */
final class Suppressions {
  private static final HexFormat HEX = HexFormat.of();

  private final String table;
  private final ErasureKeys keys;

  /**
   * @param keys the ring, or null when no erasure secret is configured (then nothing is suppressed)
   */
  Suppressions(String schema, ErasureKeys keys) {
    this.table = SqlIdentifiers.qualified(schema, "subject_suppressions");
    this.keys = keys;
  }

  /** The id of a key under which {@code normalised} is suppressed, if any. One statement. */
  Optional<String> match(Connection c, String normalised) throws SQLException {
    if (keys == null) {
      return Optional.empty();
    }
    Map<String, String> digests = digests(normalised);
    try (PreparedStatement s =
        c.prepareStatement("SELECT digest, key_id FROM " + table + " WHERE digest = ANY(?)")) {
      s.setArray(1, c.createArrayOf("text", digests.keySet().toArray(String[]::new)));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          if (rs.getString(2).equals(digests.get(rs.getString(1)))) {
            return Optional.of(rs.getString(2));
          }
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Puts {@code normalised} on the list under the current key (idempotent).
   *
   * @return the current key's id, or null when no ring is configured
   */
  String record(Connection c, String normalised, Instant now) throws SQLException {
    if (keys == null) {
      return null;
    }
    String keyId = keys.currentKeyId();
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + table
                + " (digest, key_id, suppressed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
      s.setString(1, digest(keyId, normalised));
      s.setString(2, keyId);
      s.setObject(3, now.atOffset(ZoneOffset.UTC));
      s.executeUpdate();
    }
    return keyId;
  }

  /** Removes {@code normalised} under every key of the ring; returns the entries removed. */
  int lift(Connection c, String normalised) throws SQLException {
    if (keys == null) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot lift a suppression: no erasure keys are configured, so no entry can be matched");
    }
    Map<String, String> digests = digests(normalised);
    try (PreparedStatement s =
        c.prepareStatement(
            "DELETE FROM "
                + table
                + " WHERE (digest, key_id) IN (SELECT * FROM unnest(?::text[], ?::text[]))")) {
      s.setArray(1, c.createArrayOf("text", digests.keySet().toArray(String[]::new)));
      s.setArray(2, c.createArrayOf("text", digests.values().toArray(String[]::new)));
      return s.executeUpdate();
    }
  }

  /** Key ids on the list that the ring does not hold, sorted. */
  List<String> missingKeys(Connection c) throws SQLException {
    Set<String> ring = keys == null ? Set.of() : keys.keyIds();
    List<String> missing = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT DISTINCT key_id FROM " + table + " ORDER BY key_id")) {
      while (rs.next()) {
        String id = rs.getString(1);
        if (!ring.contains(id)) {
          missing.add(id);
        }
      }
    }
    return missing;
  }

  /** Digest to key id, for every key of the ring. */
  private Map<String, String> digests(String normalised) {
    Map<String, String> digests = new LinkedHashMap<>();
    for (String keyId : keys.keyIds()) {
      digests.put(digest(keyId, normalised), keyId);
    }
    return digests;
  }

  private String digest(String keyId, String normalised) {
    return HEX.formatHex(keys.hmacSha256(keyId, NaturalIds.bytes(normalised)));
  }
}
