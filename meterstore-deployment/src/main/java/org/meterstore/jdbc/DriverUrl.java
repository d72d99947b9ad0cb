package org.meterstore.jdbc;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A parsed {@code jdbc:meterstore:config=<path>[;<property>=<value>]…} URL: the configuration file
 * and further connection properties (for example {@code meterstore.mode=historical}).
 *
 * @param config the configuration file
 * @param properties the properties after the path, in order
 */
public record DriverUrl(Path config, Map<String, String> properties) {
  /** The URL prefix the driver accepts. */
  public static final String PREFIX = "jdbc:meterstore:";

  /** Copies the properties. */
  public DriverUrl {
    properties = Map.copyOf(properties);
  }

  /** Whether {@code url} is a MeterStore URL at all. */
  public static boolean accepts(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  /**
   * Parses a MeterStore URL.
   *
   * @throws SQLException naming the URL and the expected form
   */
  public static DriverUrl parse(String url) throws SQLException {
    if (!accepts(url)) {
      throw invalid(url, "it does not start with " + PREFIX);
    }
    String[] parts = url.substring(PREFIX.length()).split(";");
    if (!parts[0].startsWith("config=") || parts[0].length() == "config=".length()) {
      throw invalid(url, "expected config=<path to meterstore.toml> after " + PREFIX);
    }
    Path config = Path.of(parts[0].substring("config=".length()));
    Map<String, String> properties = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      if (parts[i].isEmpty()) {
        continue;
      }
      int eq = parts[i].indexOf('=');
      if (eq <= 0) {
        throw invalid(url, "property '" + parts[i] + "' is not key=value");
      }
      properties.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
    }
    return new DriverUrl(config, properties);
  }

  private static SQLException invalid(String url, String why) {
    return new SQLException("Invalid MeterStore JDBC URL: '" + url + "' (" + why + ")", "08001");
  }
}
