package org.meterstore.jdbc;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.mode.QueryProperties;

/**
 * The JDBC driver for {@code jdbc:meterstore:config=<path>} URLs, registered through {@code
 * META-INF/services/java.sql.Driver}. Each configuration file is opened once with {@link
 * MeterStores#open(Path, OpenTelemetry)} (no metrics) and the deployment kept for the life of the
 * driver; every connection is a read-only connection of that deployment ({@link
 * MeterCatalog#connection(Properties)}). Thread-safe.
 */
public final class MeterStoreDriver implements Driver {
  static {
    try {
      DriverManager.registerDriver(new MeterStoreDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Function<Path, MeterCatalog> opener;
  private final Map<Path, MeterCatalog> deployments = new ConcurrentHashMap<>();

  /** The driver; the service loader and {@link DriverManager} call this. */
  public MeterStoreDriver() {
    this(path -> MeterStores.open(path, OpenTelemetry.noop()));
  }

  MeterStoreDriver(Function<Path, MeterCatalog> opener) {
    this.opener = opener;
  }

  /** Returns null for a URL that is not a MeterStore URL, as JDBC asks of drivers. */
  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    DriverUrl parsed = DriverUrl.parse(url);
    Properties all = new Properties();
    if (info != null) {
      all.putAll(info);
    }
    parsed.properties().forEach(all::setProperty);
    return deployment(parsed).connection(all);
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
    return new DriverPropertyInfo[] {mode};
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
