package org.meterstore.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * One fresh, empty database on the shared test server, owned by one test class.
 *
 * @param jdbcUrl the JDBC URL of the database, without credentials
 * @param user the role to connect as (a superuser of the test server)
 * @param password that role's password (test servers only; never a production secret)
 * @param name the database name
 * @param serverKind how the server was provided: {@code existing}, {@code docker} or {@code
 *     embedded}
 */
public record TestDatabase(
    String jdbcUrl, String user, String password, String name, String serverKind) {

  /** Opens a new connection; the caller closes it. */
  public Connection connect() throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", user);
    props.setProperty("password", password);
    return DriverManager.getConnection(jdbcUrl, props);
  }

  /** A simple (non-pooling) data source for this database. */
  public DataSource dataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(jdbcUrl);
    ds.setUser(user);
    ds.setPassword(password);
    return ds;
  }

  @Override
  public String toString() {
    return "TestDatabase[" + jdbcUrl + " as " + user + " on a " + serverKind + " server]";
  }
}
