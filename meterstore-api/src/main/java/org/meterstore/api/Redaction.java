package org.meterstore.api;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one redactor of MeterStore's messages. JDBC and catalog URLs can hold a password as a query
 * parameter ({@code ?password=…}) or as user info ({@code //user:pw@host}); both are replaced by
 * {@code ****} wherever a URL is printed ({@link #url}). {@link #scrub} does the same for the
 * errors of the libraries MeterStore opens (the PostgreSQL driver, HikariCP, Iceberg), whose
 * messages and causes quote the URL, or the host part of it, they were given. Stateless.
 */
public final class Redaction {
  private static final String MASK = "****";

  private Redaction() {}

  /**
   * A {@code name=value} pair whose name speaks of a secret, as libpq key-value strings ({@code
   * host=db password=pw}) and URL parameters write it; group 1 is everything before the value.
   */
  private static final Pattern SECRET_PAIR =
      Pattern.compile(
          "(?i)(\\b[\\w.-]*(?:password|passwd|pwd|secret|token|credential|key)[\\w.-]*\\s*=\\s*)"
              + "('[^']*'|\"[^\"]*\"|[^\\s&;,)]+)");

  /**
   * {@code url} with its query string, its {@code ;}-parameters, any user info and every secret
   * {@code name=value} pair (a libpq key-value string) masked; null stays null.
   */
  public static String url(String url) {
    if (url == null) {
      return null;
    }
    String shown = url;
    int query = parameters(shown);
    if (query >= 0) {
      shown = shown.substring(0, query + 1) + MASK;
    }
    shown = SECRET_PAIR.matcher(shown).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
    int scheme = shown.indexOf("//");
    int at = scheme < 0 ? -1 : shown.indexOf('@', scheme);
    int slash = scheme < 0 ? -1 : shown.indexOf('/', scheme + 2);
    if (at > 0 && (slash < 0 || at < slash)) {
      shown = shown.substring(0, scheme + 2) + MASK + "@" + shown.substring(at + 1);
    }
    return shown;
  }

  /** Whether {@code url} carries user info ({@code scheme://user:pw@host}); false for null. */
  public static boolean hasUserInfo(String url) {
    if (url == null) {
      return false;
    }
    int scheme = url.indexOf("//");
    int at = scheme < 0 ? -1 : url.indexOf('@', scheme);
    int slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 2);
    return at > 0 && (slash < 0 || at < slash);
  }

  /**
   * What must never be printed of {@code url}: the URL itself when it carries user info or a query
   * string, the password of its user info, and each value of a query parameter whose name contains
   * {@code password}, {@code secret} or {@code key} (as written and URL-decoded). Empty for null.
   */
  public static Set<String> secretsOf(String url) {
    Set<String> out = new LinkedHashSet<>();
    urlParts(url == null ? "" : url, out);
    return out;
  }

  /**
   * {@code e} if no text of it, its causes or its suppressed exceptions contains one of {@code
   * secrets}; otherwise a {@link MeterStoreException} of the same kind and retryability whose
   * message and cause chain are copies with every secret replaced by {@code ****} (the copies keep
   * the class name and the stack trace of each original, which is not referenced).
   */
  public static RuntimeException scrub(RuntimeException e, Collection<String> secrets) {
    List<String> ordered = new ArrayList<>(secrets);
    ordered.removeIf(s -> s == null || s.isEmpty());
    ordered.sort((a, b) -> b.length() - a.length()); // a whole URL before the password inside it
    if (ordered.isEmpty() || !leaks(e, ordered, new LinkedHashSet<>())) {
      return e;
    }
    MeterStoreException original =
        e instanceof MeterStoreException m
            ? m
            : new MeterStoreException(ErrorKind.STORAGE, e.getMessage(), e);
    MeterStoreException clean =
        new MeterStoreException(
            original.kind(),
            original.isRetryable(),
            mask(original.getMessage(), ordered),
            copy(original.getCause(), ordered, 0));
    clean.setStackTrace(original.getStackTrace());
    return clean;
  }

  private static boolean leaks(Throwable t, List<String> secrets, Set<Throwable> seen) {
    if (t == null || !seen.add(t)) {
      return false;
    }
    String text = t + " " + t.getMessage();
    for (String s : secrets) {
      if (text.contains(s)) {
        return true;
      }
    }
    for (Throwable s : t.getSuppressed()) {
      if (leaks(s, secrets, seen)) {
        return true;
      }
    }
    return leaks(t.getCause(), secrets, seen);
  }

  private static Throwable copy(Throwable t, List<String> secrets, int depth) {
    if (t == null || depth > 16) {
      return null;
    }
    RedactedCause c =
        new RedactedCause(
            t.getClass().getName() + ": " + mask(String.valueOf(t.getMessage()), secrets),
            copy(t.getCause(), secrets, depth + 1));
    c.setStackTrace(t.getStackTrace());
    for (Throwable s : t.getSuppressed()) {
      c.addSuppressed(copy(s, secrets, depth + 1));
    }
    return c;
  }

  private static String mask(String text, List<String> secrets) {
    String out = text;
    for (String s : secrets) {
      out = out.replace(s, s.contains("//") ? url(s) : MASK);
    }
    return out;
  }

  private static void urlParts(String url, Set<String> out) {
    if (url.isEmpty()) {
      return;
    }
    if (!url.equals(url(url))) {
      out.add(url);
    }
    int scheme = url.indexOf("//");
    int at = scheme < 0 ? -1 : url.indexOf('@', scheme);
    int slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 2);
    if (at > 0 && (slash < 0 || at < slash)) {
      String userInfo = url.substring(scheme + 2, at);
      int colon = userInfo.indexOf(':');
      add(out, colon < 0 ? userInfo : userInfo.substring(colon + 1));
    }
    Matcher pairs = SECRET_PAIR.matcher(url);
    while (pairs.find()) {
      String value = pairs.group(2);
      add(out, value);
      if (value.length() > 1 && (value.startsWith("'") || value.startsWith("\""))) {
        add(out, value.substring(1, value.length() - 1));
      }
    }
    int query = parameters(url);
    if (query >= 0) {
      for (String pair : url.substring(query + 1).split("[&;]")) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq).toLowerCase(Locale.ROOT);
        if (eq > 0 && (key.contains("password") || key.contains("secret") || key.contains("key"))) {
          add(out, pair.substring(eq + 1));
          add(out, URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
  }

  /**
   * Where {@code url}'s parameters start: its first {@code ?}, or a {@code ;} after the host (JDBC
   * drivers of other databases write {@code ;password=…}); -1 when it has none.
   */
  private static int parameters(String url) {
    int query = url.indexOf('?');
    int scheme = url.indexOf("//");
    int semicolon = scheme < 0 ? -1 : url.indexOf(';', scheme);
    if (semicolon >= 0 && (query < 0 || semicolon < query)) {
      return semicolon;
    }
    return query;
  }

  private static void add(Set<String> out, String secret) {
    if (secret != null && !secret.isEmpty()) {
      out.add(secret);
    }
  }

  /** A copy of a foreign exception with its secrets masked: class name and message as text. */
  private static final class RedactedCause extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RedactedCause(String message, Throwable cause) {
      super(message, cause);
    }

    @Override
    public String toString() {
      return getMessage();
    }
  }
}
