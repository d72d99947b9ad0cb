package org.meterstore.query.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.QueryEngine;
import org.meterstore.query.QueryProperties;

/**
 * The JDBC driver for {@code jdbc:meterstore:config=<path>} URLs, registered through {@code
 * META-INF/services/java.sql.Driver}. Each configuration is opened once by the {@link
 * DeploymentOpener} on the classpath and its catalog kept; every connection is a read-only
 * connection of that catalog ({@link QueryEngine#connection(Properties)}). Thread-safe.
 */
public final class MeterStoreDriver implements Driver {
  static {
    try {
      DriverManager.registerDriver(new MeterStoreDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Supplier<List<DeploymentOpener>> openers;
  private final Map<Path, QueryEngine> catalogs = new ConcurrentHashMap<>();

  /** The driver, finding openers with {@link ServiceLoader}. */
  public MeterStoreDriver() {
    this(
        () ->
            ServiceLoader.load(DeploymentOpener.class, MeterStoreDriver.class.getClassLoader())
                .stream()
                .map(ServiceLoader.Provider::get)
                .toList());
  }

  MeterStoreDriver(Supplier<List<DeploymentOpener>> openers) {
    this.openers = openers;
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
    return catalog(parsed).connection(all);
  }

  private QueryEngine catalog(DriverUrl url) throws SQLException {
    Path key = url.config().toAbsolutePath().normalize();
    QueryEngine existing = catalogs.get(key);
    if (existing != null) {
      return existing;
    }
    List<DeploymentOpener> found = openers.get();
    if (found.isEmpty()) {
      throw new SQLException(
          "Cannot open "
              + DriverUrl.PREFIX
              + "config="
              + url.config()
              + ": no "
              + DeploymentOpener.class.getName()
              + " is on the classpath (add the MeterStore module that reads meterstore.toml,"
              + " such as the CLI, or open a QueryEngine from Java)",
          "08001");
    }
    try {
      return catalogs.computeIfAbsent(key, k -> found.get(0).open(k));
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
