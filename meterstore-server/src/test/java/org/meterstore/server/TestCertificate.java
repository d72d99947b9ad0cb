package org.meterstore.server;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code localhost}/127.0.0.1 made at test time with the JDK's {@code
 * keytool}, exported as the PEM files the server's configuration names.
 */
record TestCertificate(Path certificate, Path key) {
  static TestCertificate create(Path dir) throws Exception {
    Path store = dir.resolve("server.p12");
    String password = "changeit";
    Process keytool =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair",
                    "-alias",
                    "server",
                    "-keyalg",
                    "RSA",
                    "-keysize",
                    "2048",
                    "-validity",
                    "2",
                    "-dname",
                    "CN=localhost",
                    "-ext",
                    "SAN=dns:localhost,ip:127.0.0.1",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    password,
                    "-keypass",
                    password))
            .redirectErrorStream(true)
            .start();
    String out = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + out);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, password.toCharArray());
    }
    Key key = ks.getKey("server", password.toCharArray());
    Certificate cert = ks.getCertificate("server");
    Path certPem = dir.resolve("server.crt");
    Path keyPem = dir.resolve("server.key");
    Files.writeString(certPem, pem("CERTIFICATE", cert.getEncoded()));
    Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));
    return new TestCertificate(certPem, keyPem);
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
