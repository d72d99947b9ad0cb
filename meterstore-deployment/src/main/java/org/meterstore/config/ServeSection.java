package org.meterstore.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The {@code [serve]} section: how {@code meterstore serve} listens and whom it lets in
 * (docs/serving.md). Read here, checked by the server when it starts. Immutable; {@link
 * #toString()} shows user names only, never their password hashes.
 *
 * @param host the address to bind (default {@value #DEFAULT_HOST})
 * @param port the port (default {@value #DEFAULT_PORT})
 * @param tlsCertificate the PEM certificate chain, or null (plaintext, loopback only)
 * @param tlsKey the certificate's PEM private key (PKCS#8), or null
 * @param users user name to password hash ({@code [serve.users]})
 * @param tables user name to the tables that user may read ({@code [serve.tables]}); a user not
 *     named reads every table
 * @param allowAnonymous whether a server without users may start (loopback only)
 * @param statementTimeout how long one statement may run (default five minutes)
 */
public record ServeSection(
    String host,
    int port,
    Path tlsCertificate,
    Path tlsKey,
    Map<String, Secret> users,
    Map<String, List<String>> tables,
    boolean allowAnonymous,
    Duration statementTimeout) {

  /** The default address: loopback only. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** The default port (Arrow Flight SQL's customary one). */
  public static final int DEFAULT_PORT = 31337;

  /** No section: loopback, default port, no TLS, no users. */
  public static final ServeSection DEFAULTS =
      new ServeSection(
          DEFAULT_HOST, DEFAULT_PORT, null, null, Map.of(), Map.of(), false, Duration.ofMinutes(5));

  /** Copies the maps. */
  public ServeSection {
    users = Map.copyOf(users);
    tables = Map.copyOf(tables);
  }

  @Override
  public String toString() {
    return "ServeSection[host="
        + host
        + ", port="
        + port
        + ", tls="
        + (tlsCertificate != null)
        + ", users="
        + users.keySet()
        + ", tables="
        + tables
        + ", allowAnonymous="
        + allowAnonymous
        + ", statementTimeout="
        + statementTimeout
        + "]";
  }
}
