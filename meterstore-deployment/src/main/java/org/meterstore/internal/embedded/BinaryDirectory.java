package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * Where the embedded PostgreSQL's binaries are unpacked: a directory only its owner can enter
 * (0700) — the user's cache, {@code ~/.cache/meterstore/embedded-pg}, shared by all of the user's
 * data directories, or {@code <data_dir>/pg-binaries} when the home directory cannot be written —
 * instead of zonky's default {@code embedded-pg} folder in the shared temporary directory, where
 * another local user could replace the binaries and run code as the next MeterStore user. It is
 * verified before every start: a real directory (not a symbolic link), owned by the user this
 * process runs as, with no permission for group or others; the directory above it must not be
 * writable by group or others either. Anything else — a directory planted there by someone else, or
 * loosened — refuses the start ({@code CONFIG}) instead of being used. Where the file system has no
 * POSIX permissions (Windows) only the link check applies.
 */
final class BinaryDirectory {
  static final String NAME = "pg-binaries";

  /**
   * The folder zonky unpacks into, inside the verified directory: zonky makes its working folder
   * writable for everyone, which is harmless only where nobody else can reach it.
   */
  static final String UNPACKED = "unpacked";

  private static final Set<PosixFilePermission> OWNER =
      EnumSet.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);

  private BinaryDirectory() {}

  /**
   * The binaries directory for a server of {@code dataDir}: in the cache under {@code home} (the
   * {@code user.home} of the process), or in {@code dataDir} when {@code home} is missing or cannot
   * be written.
   */
  static Path location(String home, Path dataDir) {
    if (home != null && !home.isBlank()) {
      Path h = Path.of(home);
      if (Files.isDirectory(h) && Files.isWritable(h)) {
        return h.resolve(".cache").resolve("meterstore").resolve("embedded-pg");
      }
    }
    return dataDir.resolve(NAME);
  }

  /** {@code dir} verified, created (0700, its parent too) when missing. */
  static Path prepare(Path dir) {
    Path parent = dir.toAbsolutePath().getParent();
    try {
      if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        if (!Files.exists(parent, LinkOption.NOFOLLOW_LINKS)) {
          if (parent.getParent() != null) {
            Files.createDirectories(parent.getParent());
          }
          createPrivate(parent);
        }
        createPrivate(dir);
      }
      verify(parent, dir);
      return dir;
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot prepare the embedded PostgreSQL binaries in " + dir + ": " + e,
          e);
    }
  }

  private static void createPrivate(Path dir) throws IOException {
    try {
      Files.createDirectory(dir, PasswordFile.ownerOnlyDirectory());
    } catch (FileAlreadyExistsException e) {
      // made meanwhile: verified like any existing one
    }
  }

  private static void verify(Path parent, Path dir) throws IOException {
    if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw refused(dir, "it is not a directory of its own (a symbolic link or a file)");
    }
    if (!PasswordFile.posix()) {
      return;
    }
    UserPrincipal me = currentUser(dir);
    UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
    if (!owner.equals(me)) {
      throw refused(dir, "it belongs to " + owner.getName() + ", not to " + me.getName());
    }
    Set<PosixFilePermission> permissions =
        Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    if (!OWNER.containsAll(permissions)) {
      throw refused(dir, "group or others have access to it (it must be 0700)");
    }
    Set<PosixFilePermission> above = Files.getPosixFilePermissions(parent);
    if (above.contains(PosixFilePermission.GROUP_WRITE)
        || above.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw refused(
          dir,
          "group or others may write to "
              + parent
              + " above it, and could replace it (chmod go-w "
              + parent
              + ")");
    }
  }

  /**
   * The user this process runs as: the owner of a file it creates in {@code dir} (one it cannot
   * create in is not its own).
   */
  private static UserPrincipal currentUser(Path dir) throws IOException {
    Path probe;
    try {
      probe = Files.createTempFile(dir, ".owner", ".probe");
    } catch (IOException e) {
      throw refused(dir, "this user cannot write to it");
    }
    try {
      return Files.getOwner(probe);
    } finally {
      Files.deleteIfExists(probe);
    }
  }

  private static MeterStoreException refused(Path dir, String why) {
    return new MeterStoreException(
        ErrorKind.CONFIG,
        "Refusing the embedded PostgreSQL binaries directory "
            + dir
            + ": "
            + why
            + ". Someone else could have put programs there; remove it, and MeterStore unpacks"
            + " the binaries again into a new one for this user only");
  }
}
