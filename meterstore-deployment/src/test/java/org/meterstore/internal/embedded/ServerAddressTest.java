package org.meterstore.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerAddressTest {
  @Test
  void theSocketGoesIntoTheClusterDirectoryWhenItsPathFits() {
    Path cluster = Path.of("/home/me/meterstore-data/pg");
    assertThat(ServerAddress.socketDirectory(cluster, 54321)).contains(cluster);
    assertThat(new ServerAddress(54321, Optional.of(cluster)).socketSetting())
        .isEqualTo("'/home/me/meterstore-data/pg'");
  }

  @Test
  void aPathOverTheSocketLimitGetsNoSocket() {
    String dir = "/" + "d".repeat(107 - "/.s.PGSQL.54321".length() - 1) + "/p";
    assertThat((dir + "/.s.PGSQL.54321").length()).isEqualTo(109);
    assertThat(ServerAddress.socketDirectory(Path.of(dir), 54321)).isEmpty();
    assertThat(new ServerAddress(54321, Optional.empty()).socketSetting()).isEqualTo("''");
  }

  @Test
  void exactlyTheLimitStillFits() {
    String socketName = "/.s.PGSQL.54321";
    Path cluster = Path.of("/" + "d".repeat(107 - socketName.length() - 1));
    assertThat((cluster + socketName).length()).isEqualTo(107);
    assertThat(ServerAddress.socketDirectory(cluster, 54321)).contains(cluster);
  }

  @Test
  void aPathTheServersCommandLineCannotCarryGetsNoSocket() {
    assertThat(ServerAddress.socketDirectory(Path.of("/tmp/it's/pg"), 5432)).isEmpty();
    assertThat(ServerAddress.socketDirectory(Path.of("/tmp/a,b/pg"), 5432)).isEmpty();
    assertThat(ServerAddress.socketDirectory(Path.of("/tmp/with space/pg"), 5432)).isPresent();
  }
}
