package org.meterstore.jdbc;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.InstantSource;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.MeterStoreException;
import org.meterstore.maintenance.WallClock;
import org.meterstore.query.mode.QueryProperties;

/**
 * The JDBC driver for {@code jdbc:meterstore:config=<path>} URLs, registered through {@code
 * META-INF/services/java.sql.Driver}. Each configuration file is opened once with {@link
 * MeterStores#open(Path, OpenTelemetry)} (no metrics) and the deployment kept for the life of the
 * driver; every connection is a read-only connection of that deployment ({@link
 * MeterCatalog#connection(Properties)}). {@code meterstore.system_at=now} computes the connection's
 * {@code system} relations at the driver clock's instant (the wall clock, through {@link
 * WallClock}); nothing else here reads the time. Thread-safe.
 */
public final class MeterStoreDriver implements Driver {
  static {
    try {
      DriverManager.registerDriver(new MeterStoreDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The value of {@link QueryProperties#SYSTEM_AT} that the driver replaces by its clock's now. */
  static final String NOW = "now";

  private final Function<Path, MeterCatalog> opener;
  private final InstantSource clock;
  private final Map<Path, MeterCatalog> deployments = new ConcurrentHashMap<>();

  /** The driver; the service loader and {@link DriverManager} call this. */
  public MeterStoreDriver() {
    this(path -> MeterStores.open(path, OpenTelemetry.noop()), WallClock.INSTANCE);
  }

  MeterStoreDriver(Function<Path, MeterCatalog> opener) {
    this(opener, WallClock.INSTANCE);
  }

  /**
   * A driver reading {@code meterstore.system_at=now} from {@code clock}: the driver is an
   * application edge, like the CLI without {@code --now}; tests pass a fixed clock.
   */
  MeterStoreDriver(Function<Path, MeterCatalog> opener, InstantSource clock) {
    this.opener = opener;
    this.clock = clock;
  }

  /** Returns null for a URL that is not a MeterStore URL, as JDBC asks of drivers. */
  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    DriverUrl parsed = DriverUrl.parse(url);
    return deployment(parsed).connection(properties(parsed, info, clock));
  }

  /**
   * The connection's properties: {@code info}, then the URL's (which win), with {@code
   * meterstore.system_at=now} (any case) replaced by {@code clock}'s instant, so the connection's
   * {@code system} relations are computed at the moment it opens.
   */
  static Properties properties(DriverUrl url, Properties info, InstantSource clock) {
    Properties all = new Properties();
    if (info != null) {
      info.stringPropertyNames().forEach(k -> all.setProperty(k, info.getProperty(k)));
    }
    url.properties().forEach(all::setProperty);
    String systemAt = all.getProperty(QueryProperties.SYSTEM_AT);
    if (systemAt != null && NOW.equalsIgnoreCase(systemAt.trim())) {
      all.setProperty(QueryProperties.SYSTEM_AT, clock.instant().toString());
    }
    return all;
  }

  @SuppressWarnings("resource") // kept open for the driver's life, like a pool
  private MeterCatalog deployment(DriverUrl url) throws SQLException {
    Path key = url.config().toAbsolutePath().normalize();
    try {
      return deployments.computeIfAbsent(key, opener);
    } catch (MeterStoreException e) {
      throw new SQLException("Cannot open " + url.config() + ": " + e.getMessage(), "08001", e);
    }
  }

  @Override
  public boolean acceptsURL(String url) {
    return DriverUrl.accepts(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    DriverPropertyInfo mode =
        new DriverPropertyInfo(
            QueryProperties.MODE, info == null ? null : info.getProperty(QueryProperties.MODE));
    mode.description = "read mode";
    mode.choices =
        new String[] {
          "current",
          "as_of_snapshot",
          "as_of_tag",
          "as_of_time",
          "known_at",
          "historical",
          "operational"
        };
    DriverPropertyInfo systemAt =
        new DriverPropertyInfo(
            QueryProperties.SYSTEM_AT,
            info == null ? null : info.getProperty(QueryProperties.SYSTEM_AT));
    systemAt.description =
        "compute the system relations when the connection opens, at now or at an ISO-8601 instant;"
            + " absent, system.* is not readable";
    DriverPropertyInfo tag =
        new DriverPropertyInfo(
            QueryProperties.TAG, info == null ? null : info.getProperty(QueryProperties.TAG));
    tag.description =
        "the tag (settlement pin) read with meterstore.mode=as_of_tag, e.g. settlement-2026-10";
    return new DriverPropertyInfo[] {mode, systemAt, tag};
  }

  @Override
  public int getMajorVersion() {
    return 0;
  }

  @Override
  public int getMinorVersion() {
    return 1;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("MeterStore logs through SLF4J");
  }
}
