package org.meterstore.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * How {@code meterstore serve} listens and whom it lets in.
 *
 * @param host the address to bind ({@code 127.0.0.1} by default)
 * @param port the port; 0 picks a free one ({@link SqlServer#port()} says which)
 * @param tlsCertificate PEM certificate chain, or null for plaintext (loopback only)
 * @param tlsKey PEM private key (PKCS#8) of the certificate, or null
 * @param users user name to {@link PasswordHash} text; empty only for an anonymous loopback server
 * @param tables user name to the tables that user may read; a user not named here reads every table
 * @param anonymousLoopback whether a server without users is allowed (bound to loopback only)
 * @param statementTimeout how long one statement may run before it is cancelled
 */
public record ServerSettings(
    String host,
    int port,
    Path tlsCertificate,
    Path tlsKey,
    Map<String, String> users,
    Map<String, Set<String>> tables,
    boolean anonymousLoopback,
    Duration statementTimeout) {

  /** Checks the combination: who may connect how. */
  public ServerSettings {
    Objects.requireNonNull(host, "host");
    users = Map.copyOf(users);
    tables = Map.copyOf(tables);
    Objects.requireNonNull(statementTimeout, "statementTimeout");
    if (port < 0 || port > 65535) {
      throw invalid("serve.port", Integer.toString(port), "0 to 65535");
    }
    if ((tlsCertificate == null) != (tlsKey == null)) {
      throw invalid("serve.tls", "one of certificate and key", "both, or neither");
    }
    boolean loopback = isLoopback(host);
    if (tlsCertificate == null && !loopback) {
      throw invalid(
          "serve.host",
          host,
          "a loopback address without TLS (configure serve.tls_certificate and serve.tls_key)");
    }
    if (users.isEmpty() && !(anonymousLoopback && loopback)) {
      throw invalid(
          "serve.users",
          "none",
          "at least one user (or allow_anonymous on a loopback address, for local tools)");
    }
    users.forEach((name, hash) -> PasswordHash.parse(hash, "serve.users." + name));
    for (String user : tables.keySet()) {
      if (!users.containsKey(user)) {
        throw invalid("serve.tables", user, "a configured user");
      }
    }
    if (statementTimeout.isNegative() || statementTimeout.isZero()) {
      throw invalid("serve.statement_timeout", statementTimeout.toString(), "a positive duration");
    }
    for (Path p : new Path[] {tlsCertificate, tlsKey}) {
      if (p != null && !Files.isReadable(p)) {
        throw invalid("serve.tls", p.toString(), "a readable PEM file");
      }
    }
  }

  /**
   * The settings a configuration file's {@code [serve]} section names.
   *
   * @throws MeterStoreException {@code CONFIG} for a combination the server refuses
   */
  public static ServerSettings from(org.meterstore.config.ServeSection section) {
    Map<String, String> users = new java.util.LinkedHashMap<>();
    section.users().forEach((name, hash) -> users.put(name, hash.reveal()));
    Map<String, Set<String>> tables = new java.util.LinkedHashMap<>();
    section.tables().forEach((name, list) -> tables.put(name, Set.copyOf(list)));
    return new ServerSettings(
        section.host(),
        section.port(),
        section.tlsCertificate(),
        section.tlsKey(),
        users,
        tables,
        section.allowAnonymous(),
        section.statementTimeout());
  }

  /** Whether {@code host} names a loopback address (resolving names, not the network). */
  static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** Whether the server speaks TLS. */
  public boolean tls() {
    return tlsCertificate != null;
  }

  private static MeterStoreException invalid(String key, String value, String expected) {
    return new MeterStoreException(
        ErrorKind.CONFIG, "Invalid " + key + ": '" + value + "' (expected " + expected + ")");
  }
}
