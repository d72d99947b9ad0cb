package org.meterstore.config;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The configuration's side of {@link org.meterstore.api.Redaction}: which values of a {@link
 * MeterStoreConfig} are secrets. Masking itself is the api's one redactor.
 */
final class Redaction {
  private Redaction() {}

  /** {@code url} with its query string and any user info masked; null stays null. */
  static String url(String url) {
    return org.meterstore.api.Redaction.url(url);
  }

  /** Whether {@code url} carries user info. */
  static boolean hasUserInfo(String url) {
    return org.meterstore.api.Redaction.hasUserInfo(url);
  }

  /**
   * What must never be printed of {@code config}: its passwords, S3 secret key and erasure keys,
   * and of each URL the URL itself, its user info and its query string (with each query value).
   */
  static Set<String> secretsOf(MeterStoreConfig config) {
    Set<String> out = new LinkedHashSet<>();
    add(out, Secret.revealOrNull(config.hot().password()));
    add(out, Secret.revealOrNull(config.cold().password()));
    if (config.cold().s3() != null) {
      add(out, Secret.revealOrNull(config.cold().s3().secretAccessKey()));
    }
    config.privacy().erasureKeys().values().forEach(k -> add(out, k.reveal()));
    config.serve().users().values().forEach(h -> add(out, h.reveal()));
    for (String url : List.of(nullToEmpty(config.hot().url()), nullToEmpty(config.cold().uri()))) {
      out.addAll(org.meterstore.api.Redaction.secretsOf(url));
    }
    return out;
  }

  /** See {@link org.meterstore.api.Redaction#scrub}. */
  static RuntimeException scrub(RuntimeException e, Collection<String> secrets) {
    return org.meterstore.api.Redaction.scrub(e, secrets);
  }

  private static void add(Set<String> out, String secret) {
    if (secret != null && !secret.isEmpty()) {
      out.add(secret);
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
