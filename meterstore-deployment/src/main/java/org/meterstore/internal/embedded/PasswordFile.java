package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.config.Secret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded superuser's password, in {@code <data_dir>/pg-password}: one line, readable by the
 * owner only (0600), generated from {@link SecureRandom} the first time a cluster needs one and
 * kept since. Another process on the same machine that is allowed to read it may connect; nobody
 * else learns it, as it is never printed. The file is written to a temporary name and moved into
 * place, so a crash leaves either no file or a whole one.
 */
final class PasswordFile {
  private static final Logger LOG = LoggerFactory.getLogger(PasswordFile.class);
  static final String NAME = "pg-password";
  static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
  private static final int RANDOM_BYTES = 24; // 192 bits, 32 URL-safe characters

  private PasswordFile() {}

  /** The file of {@code dataDir}. */
  static Path in(Path dataDir) {
    return dataDir.resolve(NAME);
  }

  /** Whether {@code file} exists. */
  static boolean exists(Path file) {
    return Files.exists(file);
  }

  /**
   * The password in {@code file}; when a copy left it open to the group or others, the file is made
   * owner-only (0600) again first.
   *
   * @throws MeterStoreException {@code CONFIG} when it cannot be read or is empty
   */
  static Secret read(Path file) {
    try {
      if (posix() && !OWNER_ONLY.containsAll(Files.getPosixFilePermissions(file))) {
        LOG.warn("Making {} readable by its owner only (0600)", file);
        Files.setPosixFilePermissions(file, OWNER_ONLY);
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      if (lines.isEmpty() || lines.get(0).isBlank()) {
        throw new MeterStoreException(
            ErrorKind.CONFIG,
            "Cannot read the embedded PostgreSQL password: " + file + " is empty");
      }
      return Secret.of(lines.get(0).strip());
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot read the embedded PostgreSQL password in " + file + ": " + e,
          e);
    }
  }

  /**
   * Writes a new random password to {@code file} (owner-only from its creation) and returns it.
   *
   * @throws MeterStoreException {@code CONFIG} when the file cannot be written
   */
  static Secret create(Path file) {
    byte[] random = new byte[RANDOM_BYTES];
    new SecureRandom().nextBytes(random);
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    Path tmp = file.resolveSibling(NAME + ".tmp");
    try {
      Files.deleteIfExists(tmp);
      try (FileChannel out =
          FileChannel.open(
              tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), ownerOnly())) {
        out.write(ByteBuffer.wrap((password + "\n").getBytes(StandardCharsets.UTF_8)));
        out.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot write the embedded PostgreSQL password to " + file + ": " + e,
          e);
    }
    LOG.info("Generated the embedded PostgreSQL password in {}", file);
    return Secret.of(password);
  }

  /** The attribute that creates a file for its owner only (0600), where POSIX applies. */
  static FileAttribute<?>[] ownerOnly() {
    return posix()
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
        : new FileAttribute<?>[0];
  }

  /** The attribute that creates a directory for its owner only (0700), where POSIX applies. */
  static FileAttribute<?>[] ownerOnlyDirectory() {
    return posix()
        ? new FileAttribute<?>[] {
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))
        }
        : new FileAttribute<?>[0];
  }

  static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
