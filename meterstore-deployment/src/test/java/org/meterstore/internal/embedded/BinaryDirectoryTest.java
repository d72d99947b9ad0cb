package org.meterstore.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The directory the embedded PostgreSQL's binaries are unpacked into (issue #38): created for its
 * owner only, and a directory someone else planted or loosened is refused, never used.
 */
class BinaryDirectoryTest {
  @TempDir Path root;
  private Path dir;

  @BeforeEach
  void posixOnly() {
    assumeTrue(PasswordFile.posix(), "permissions are POSIX here");
    dir = root.resolve("home/.cache/meterstore/embedded-pg");
  }

  @Test
  void aMissingDirectoryIsCreatedForItsOwnerOnly() throws IOException {
    assertThat(BinaryDirectory.prepare(dir)).isEqualTo(dir);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.getParent())))
        .isEqualTo("rwx------");
    assertThat(BinaryDirectory.prepare(dir)).isEqualTo(dir); // verified again, still fine
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty(); // the owner probe leaves nothing behind
    }
  }

  @Test
  void aPlantedDirectoryOthersCanWriteIsRefused() throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.createFile(dir.resolve("postgres"));
    assertRefused("group or others have access");
  }

  @Test
  void aDirectoryTheGroupCanReadIsRefused() throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
    assertRefused("must be 0700");
  }

  @Test
  void aSymbolicLinkIsRefused() throws IOException {
    Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectories(dir.getParent());
    Files.createSymbolicLink(dir, elsewhere);
    assertRefused("not a directory of its own");
  }

  @Test
  void aParentOthersCanWriteIsRefused() throws IOException {
    BinaryDirectory.prepare(dir);
    Files.setPosixFilePermissions(dir.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
    assertRefused("chmod go-w");
  }

  /** Only root can give a directory away: run where the tests run as root (CI containers). */
  @Test
  void aDirectoryOfAnotherUserIsRefused() throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    UserPrincipal nobody;
    try {
      nobody = root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(dir, nobody);
    } catch (IOException e) {
      assumeTrue(false, "cannot give a directory to another user here: " + e);
      return;
    }
    assertRefused("belongs to " + nobody.getName());
  }

  @Test
  void withoutAWritableHomeTheBinariesGoIntoTheDataDirectory() throws IOException {
    Path data = root.resolve("data");
    assertThat(BinaryDirectory.location(null, data)).isEqualTo(data.resolve("pg-binaries"));
    assertThat(BinaryDirectory.location(root.resolve("no-such-home").toString(), data))
        .isEqualTo(data.resolve("pg-binaries"));
    Path home = Files.createDirectories(root.resolve("home"));
    assertThat(BinaryDirectory.location(home.toString(), data))
        .isEqualTo(home.resolve(".cache/meterstore/embedded-pg"));
  }

  private void assertRefused(String why) {
    assertThatThrownBy(() -> BinaryDirectory.prepare(dir))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
        .hasMessageContaining("Refusing the embedded PostgreSQL binaries directory " + dir)
        .hasMessageContaining(why);
  }
}
