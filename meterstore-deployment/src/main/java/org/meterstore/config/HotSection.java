package org.meterstore.config;

import java.time.Duration;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.partition.DetachMode;

/**
 * The {@code [hot]} section: where the PostgreSQL hot tier is and how MeterStore behaves in it.
 * Immutable; {@link #toString()} shows no password.
 *
 * @param url a {@code jdbc:postgresql:} URL, or null for the embedded default (a PostgreSQL server
 *     started under {@code data_dir/pg})
 * @param user the role to connect as, or null (the driver's default, or the URL's)
 * @param password that role's password, or null
 * @param poolSize the most connections MeterStore opens, 1 to 1000 (default 8)
 * @param ddlLockTimeout how long one DDL statement may wait for its lock (default 3 s; zero
 *     disables)
 * @param schema MeterStore's schema (default {@code meterstore})
 * @param detachMode how the maintenance loop detaches a due partition (default {@link
 *     DetachMode#CONCURRENTLY}, which keeps inserts flowing while a long reader holds the
 *     partition; {@link DetachMode#PLAIN} makes inserts wait behind it, at most {@code
 *     ddl_lock_timeout})
 */
public record HotSection(
    String url,
    String user,
    Secret password,
    int poolSize,
    Duration ddlLockTimeout,
    String schema,
    DetachMode detachMode) {

  /** The embedded default with default settings. */
  public static final HotSection DEFAULTS =
      new HotSection(
          null,
          null,
          null,
          HotConfig.DEFAULT_POOL_SIZE,
          HotSettings.DEFAULT_DDL_LOCK_TIMEOUT,
          HotSettings.DEFAULT_SCHEMA,
          DetachMode.CONCURRENTLY);

  /** Validates every component ({@code CONFIG}). */
  public HotSection {
    if (url != null && !url.startsWith("jdbc:postgresql:")) {
      // not a URL at all: nothing of it is shown, it may be a secret pasted into the wrong key
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Invalid hot.url: (value not shown) (a jdbc:postgresql: URL, or no url)");
    }
    if (Redaction.hasUserInfo(url)) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Invalid hot.url: '"
              + Redaction.url(url)
              + "' (no user info in the URL: the PostgreSQL driver does not read it; set hot.user"
              + " and hot.password)");
    }
    if (poolSize < 1 || poolSize > 1000) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Invalid hot.pool_size: " + poolSize + " (1 to 1000 connections)");
    }
    settings(schema, ddlLockTimeout, null);
    if (detachMode == null) {
      throw new MeterStoreException(ErrorKind.CONFIG, "Invalid hot.detach_mode: none given");
    }
  }

  /** Whether this section asks for the embedded default (no url). */
  public boolean embedded() {
    return url == null;
  }

  /** The hot tier's behaviour settings (schema, lock timeout) with {@code privacy}'s key ring. */
  public HotSettings settings(PrivacySection privacy) {
    return settings(schema, ddlLockTimeout, privacy == null ? null : privacy.keyRing());
  }

  private static HotSettings settings(
      String schema, Duration timeout, org.meterstore.hot.subject.ErasureKeys keys) {
    try {
      return new HotSettings(schema, timeout, keys);
    } catch (MeterStoreException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, e.getMessage().replace("Invalid ", "Invalid hot."));
    }
  }

  @Override
  public String toString() {
    return "HotSection[url="
        + (url == null ? "(embedded)" : Redaction.url(url))
        + ", user="
        + user
        + ", password="
        + password
        + ", poolSize="
        + poolSize
        + ", ddlLockTimeout="
        + ddlLockTimeout
        + ", schema="
        + schema
        + ", detachMode="
        + detachMode
        + "]";
  }
}
