package org.meterstore.hot;

import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.Redaction;

/**
 * Everything {@link HotStore#open(HotConfig, io.opentelemetry.api.OpenTelemetry)} needs to run its
 * own connection pool: where the database is, who to connect as, how many connections, and the
 * {@link HotSettings}.
 *
 * <p>Immutable and thread-safe; validated eagerly ({@link ErrorKind#CONFIG}). {@link #toString()}
 * never shows the password.
 *
 * @param jdbcUrl a {@code jdbc:postgresql:} URL, required; it should carry no password (use {@code
 *     password})
 * @param user the role to connect as, or null to let the driver decide (URL or environment)
 * @param password that role's password, or null; never printed
 * @param poolSize the most connections the pool opens, 1 to 1000 (default {@value
 *     #DEFAULT_POOL_SIZE})
 * @param settings schema and {@code ddl_lock_timeout}; never null
 */
public record HotConfig(
    String jdbcUrl, String user, String password, int poolSize, HotSettings settings) {
  /** The default pool size. */
  public static final int DEFAULT_POOL_SIZE = 8;

  /** Validates every component. */
  public HotConfig {
    if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Invalid jdbc_url: '" + shown(jdbcUrl) + "' (a jdbc:postgresql: URL is required)");
    }
    if (poolSize < 1 || poolSize > 1000) {
      throw HotSettings.config("pool_size", poolSize, "1 to 1000 connections");
    }
    if (settings == null) {
      throw HotSettings.config("settings", null, "required; use HotSettings.DEFAULTS");
    }
  }

  /** A configuration with the default pool size and {@link HotSettings#DEFAULTS}. */
  public static HotConfig of(String jdbcUrl, String user, String password) {
    return new HotConfig(jdbcUrl, user, password, DEFAULT_POOL_SIZE, HotSettings.DEFAULTS);
  }

  /** This configuration with another pool size. */
  public HotConfig withPoolSize(int size) {
    return new HotConfig(jdbcUrl, user, password, size, settings);
  }

  /** This configuration with other settings. */
  public HotConfig withSettings(HotSettings newSettings) {
    return new HotConfig(jdbcUrl, user, password, poolSize, newSettings);
  }

  /**
   * Shows every component but the password, which appears as {@code ****} when set; the URL as
   * {@link #shownUrl()} prints it.
   */
  @Override
  public String toString() {
    return "HotConfig[jdbcUrl='"
        + shownUrl()
        + "', user="
        + user
        + ", password="
        + (password == null ? "null" : "****")
        + ", poolSize="
        + poolSize
        + ", settings="
        + settings
        + "]";
  }

  /**
   * The JDBC URL as it may be printed: user info ({@code //user:password@host}) and the query
   * string (which may carry {@code password=}) replaced by {@code ****}; {@code null} when there is
   * no URL.
   */
  public String shownUrl() {
    return shown(jdbcUrl);
  }

  private static String shown(String url) {
    return url == null ? "null" : Redaction.url(url);
  }
}
