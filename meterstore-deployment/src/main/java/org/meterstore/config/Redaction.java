package org.meterstore.config;

/**
 * Hides the parts of configuration values that may carry secrets. JDBC URLs can hold a password as
 * a query parameter ({@code ?password=…}) or as user info ({@code //user:pw@host}); both are
 * replaced by {@code ****} wherever a URL is printed.
 */
final class Redaction {
  private Redaction() {}

  /** {@code url} with its query string and any user info masked; null stays null. */
  static String url(String url) {
    if (url == null) {
      return null;
    }
    String shown = url;
    int query = shown.indexOf('?');
    if (query >= 0) {
      shown = shown.substring(0, query) + "?****";
    }
    int scheme = shown.indexOf("//");
    int at = scheme < 0 ? -1 : shown.indexOf('@', scheme);
    int slash = scheme < 0 ? -1 : shown.indexOf('/', scheme + 2);
    if (at > 0 && (slash < 0 || at < slash)) {
      shown = shown.substring(0, scheme + 2) + "****@" + shown.substring(at + 1);
    }
    return shown;
  }
}
