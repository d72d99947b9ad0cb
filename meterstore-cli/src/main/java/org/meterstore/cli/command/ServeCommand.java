package org.meterstore.cli.command;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.meterstore.MeterCatalog;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.server.PasswordHash;
import org.meterstore.server.ServerSettings;
import org.meterstore.server.SqlServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code meterstore serve}: MeterStore's SQL over Arrow Flight SQL until stopped. */
@Command(
    name = "serve",
    description = {
      "Serve the SQL surface over Arrow Flight SQL (read-only) until stopped (Ctrl-C, SIGTERM).",
      "",
      "Listens as the [serve] section says: TLS with tls_certificate and tls_key, users with",
      "password hashes in [serve.users] (make one with --hash-password). Without TLS it binds",
      "loopback only. Clients never see the store's credentials. See docs/serving.md."
    })
final class ServeCommand extends Verb {
  @Option(
      names = "--hash-password",
      description =
          "Read a password from standard input, print its hash for [serve.users] and exit.")
  boolean hashPassword;

  @Override
  public Integer call() throws Exception {
    if (hashPassword) {
      char[] password = readPassword(root.io());
      String hash = PasswordHash.create(password);
      java.util.Arrays.fill(password, '\0');
      root.print(new Document().put("hash", hash));
      return ExitCode.OK;
    }
    MeterStoreConfig config = Deployments.load(root.configFile());
    ServerSettings settings = ServerSettings.from(config.serve());
    MeterCatalog catalog = Deployments.open(root.configFile());
    SqlServer server;
    try {
      server = SqlServer.start(catalog, settings);
    } catch (RuntimeException e) {
      catalog.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              // on Ctrl-C or SIGTERM the JVM halts once the hooks end: stop and close here
              server.close();
              catalog.close();
              stopped.countDown();
            },
            "meterstore-serve-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    root.print(
        new Document()
            .put("serving", settings.host() + ":" + server.port())
            .put("tls", settings.tls())
            .put("users", settings.users().size()));
    root.warn("serving SQL on " + settings.host() + ":" + server.port() + "; Ctrl-C stops it");
    stopped.await();
    return ExitCode.OK;
  }

  private static char[] readPassword(org.meterstore.cli.output.Io io) throws IOException {
    java.io.Console console = io.interactive() ? System.console() : null;
    if (console != null) {
      char[] p = console.readPassword("password: ");
      if (p != null && p.length > 0) {
        return p;
      }
    }
    BufferedReader in = new BufferedReader(new InputStreamReader(io.in(), StandardCharsets.UTF_8));
    String line = in.readLine();
    if (line == null || line.isEmpty()) {
      throw new MeterStoreException(
          ErrorKind.INVALID_INPUT, "Invalid password: empty (type it, or pipe it in)");
    }
    return line.toCharArray();
  }
}
