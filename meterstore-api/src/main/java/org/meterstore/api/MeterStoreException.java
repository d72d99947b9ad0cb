package org.meterstore.api;

import java.util.Objects;

/**
 * The one exception MeterStore's API throws (unchecked).
 *
 * <p>{@link #kind()} says what went wrong in terms a caller can act on and {@link #isRetryable()}
 * whether repeating the same call unchanged can succeed. Messages read "Cannot &lt;action&gt;:
 * &lt;reason&gt;" or "Invalid &lt;field&gt;: &lt;value&gt; (&lt;rule&gt;)" and name the table, the
 * reading and the rule involved; they never contain a secret.
 */
public class MeterStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;
  private final boolean retryable;

  /** An error of {@code kind} with that kind's default retryability. */
  public MeterStoreException(ErrorKind kind, String message) {
    this(kind, message, null);
  }

  /** An error of {@code kind} with that kind's default retryability and a cause. */
  public MeterStoreException(ErrorKind kind, String message, Throwable cause) {
    this(kind, Objects.requireNonNull(kind, "kind").retryableByDefault(), message, cause);
  }

  /** An error whose retryability differs from its kind's default (only {@code QUERY} does). */
  public MeterStoreException(ErrorKind kind, boolean retryable, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.retryable = retryable;
  }

  private static final int MAX_SHOWN = 64;

  /**
   * An {@link ErrorKind#INVALID_INPUT} error in the house format {@code Invalid <field>: '<value>'
   * (<rule>)}. Input often comes from files and messages, so the value is shortened to 64
   * characters and control characters are replaced by {@code ?}: the message stays one log line.
   */
  public static MeterStoreException invalid(String field, Object value, String rule) {
    return new MeterStoreException(
        ErrorKind.INVALID_INPUT, "Invalid " + field + ": " + shown(value) + " (" + rule + ")");
  }

  /**
   * The {@link ErrorKind#CONFIG} error for a configured table that does not exist in a tier: it was
   * purged, or never created. Reading, writing or maintaining such a table never creates it; the
   * message says the two ways out, in the operator's words.
   *
   * @param where the tier and the relation, e.g. {@code "the hot tier (meterstore.strom)"}
   */
  public static MeterStoreException tableMissing(String table, String where) {
    return new MeterStoreException(
        ErrorKind.CONFIG,
        "Table "
            + table
            + " does not exist in "
            + where
            + ": it was purged or never created. Remove it from the configuration file, or"
            + " create it (again) with 'meterstore create'");
  }

  /**
   * How {@link #invalid} shows a value: quoted, its first 64 characters with control characters as
   * {@code ?}, and its length when longer; {@code null} unquoted. A caller that must keep a value
   * out of a message (a configuration value that may be a secret) finds it by this form.
   */
  public static String shown(Object value) {
    if (value == null) {
      return "null";
    }
    String text = String.valueOf(value);
    StringBuilder shown = new StringBuilder("'");
    int limit = Math.min(text.length(), MAX_SHOWN);
    for (int i = 0; i < limit; i++) {
      char c = text.charAt(i);
      shown.append(Character.isISOControl(c) ? '?' : c);
    }
    shown.append('\'');
    if (text.length() > MAX_SHOWN) {
      shown.append("... (").append(text.length()).append(" characters)");
    }
    return shown.toString();
  }

  /** What went wrong, in terms a caller can act on. */
  public ErrorKind kind() {
    return kind;
  }

  /** Whether repeating the same call unchanged can succeed. */
  public boolean isRetryable() {
    return retryable;
  }
}
