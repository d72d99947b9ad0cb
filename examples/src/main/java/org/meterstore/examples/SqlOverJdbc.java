package org.meterstore.examples;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;

/**
 * SQL over JDBC with nothing but a configuration file: {@code jdbc:meterstore:config=<path>}. Any
 * JDBC tool can use the same URL (with the jars of {@code meterstore-maintenance} on its
 * classpath).
 *
 * <p>Run after {@code ./meterstore demo}, which leaves {@code meterstore-data/meterstore.toml}:
 * {@code java -cp … org.meterstore.examples.SqlOverJdbc meterstore-data/meterstore.toml}.
 */
public final class SqlOverJdbc {
  private SqlOverJdbc() {}

  public static void main(String[] args) throws Exception {
    Path config = Path.of(args.length > 0 ? args[0] : "meterstore-data/meterstore.toml");
    String sql =
        args.length > 1
            ? args[1]
            : "SELECT sparte, COUNT(*) AS readings, SUM(\"value\") AS total FROM strom"
                + " GROUP BY sparte";
    try (Connection c = DriverManager.getConnection("jdbc:meterstore:config=" + config);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        StringBuilder line = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          line.append(i > 1 ? "  " : "").append(md.getColumnLabel(i)).append('=');
          line.append(rs.getString(i));
        }
        System.out.println(line);
      }
    }
  }
}
