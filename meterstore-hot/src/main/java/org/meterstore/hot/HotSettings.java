package org.meterstore.hot;

import java.time.Duration;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.subject.ErasureKeys;

/**
 * How MeterStore behaves inside a PostgreSQL database, independent of how it connects.
 *
 * <p>Immutable and thread-safe; the compact constructor validates eagerly and throws {@link
 * MeterStoreException} of kind {@link ErrorKind#CONFIG} naming the field, the value and the rule.
 *
 * @param schema the schema holding every MeterStore object (default {@value #DEFAULT_SCHEMA}): a
 *     lowercase identifier of at most 63 characters, not starting with {@code pg_}. It is always
 *     quoted in SQL.
 * @param ddlLockTimeout how long one DDL statement issued by MeterStore (partition attach, detach,
 *     drop) may wait for its lock before it gives up with {@link ErrorKind#LOCK_TIMEOUT} having
 *     changed nothing (default 3 s). Whole milliseconds, zero or more, below 24 days; {@link
 *     Duration#ZERO} disables the timeout (PostgreSQL's default, and the advice is against it: a
 *     waiting DDL queues every reader and writer behind it).
 * @param erasureKeys the key ring of the subject registry's suppression list, or null (the default)
 *     for none: erased identifiers are then not suppressed and replayed data can register them
 *     again. Its secrets never appear in {@link #toString()}.
 */
public record HotSettings(String schema, Duration ddlLockTimeout, ErasureKeys erasureKeys) {
  /** The default schema name. */
  public static final String DEFAULT_SCHEMA = "meterstore";

  /** The default {@code ddl_lock_timeout}. */
  public static final Duration DEFAULT_DDL_LOCK_TIMEOUT = Duration.ofSeconds(3);

  /** Schema {@value #DEFAULT_SCHEMA}, {@code ddl_lock_timeout} 3 s, no erasure keys. */
  public static final HotSettings DEFAULTS =
      new HotSettings(DEFAULT_SCHEMA, DEFAULT_DDL_LOCK_TIMEOUT);

  private static final long MAX_TIMEOUT_MILLIS = Integer.MAX_VALUE;

  /** Validates the settings ({@link ErasureKeys} validate themselves). */
  public HotSettings {
    requireSchema(schema);
    requireTimeout(ddlLockTimeout);
  }

  /** Settings without erasure keys. */
  public HotSettings(String schema, Duration ddlLockTimeout) {
    this(schema, ddlLockTimeout, null);
  }

  /** These settings with another schema. */
  public HotSettings withSchema(String newSchema) {
    return new HotSettings(newSchema, ddlLockTimeout, erasureKeys);
  }

  /** These settings with another {@code ddl_lock_timeout}; {@link Duration#ZERO} disables it. */
  public HotSettings withDdlLockTimeout(Duration timeout) {
    return new HotSettings(schema, timeout, erasureKeys);
  }

  /** These settings with another erasure key ring; null for none. */
  public HotSettings withErasureKeys(ErasureKeys keys) {
    return new HotSettings(schema, ddlLockTimeout, keys);
  }

  private static void requireSchema(String schema) {
    if (schema == null
        || !schema.matches("[a-z][a-z0-9_]*")
        || schema.length() > 63
        || schema.startsWith("pg_")) {
      throw config(
          "schema",
          schema,
          "a lowercase identifier: a letter, then letters, digits or _; at most 63 characters;"
              + " not starting with pg_");
    }
  }

  private static void requireTimeout(Duration timeout) {
    String rule = "whole milliseconds from 0 (disabled) to " + MAX_TIMEOUT_MILLIS + " ms";
    if (timeout == null || timeout.isNegative() || timeout.getNano() % 1_000_000 != 0) {
      throw config("ddl_lock_timeout", timeout, rule);
    }
    if (timeout.compareTo(Duration.ofMillis(MAX_TIMEOUT_MILLIS)) > 0) {
      throw config("ddl_lock_timeout", timeout, rule);
    }
  }

  static MeterStoreException config(String field, Object value, String rule) {
    String shown = value == null ? "null" : "'" + value + "'";
    return new MeterStoreException(
        ErrorKind.CONFIG, "Invalid " + field + ": " + shown + " (" + rule + ")");
  }
}
