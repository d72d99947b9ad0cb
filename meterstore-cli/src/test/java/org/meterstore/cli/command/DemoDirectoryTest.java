package org.meterstore.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class DemoDirectoryTest {
  @TempDir Path tmp;

  @Test
  void aDirectoryAnEarlierDemoMadeIsReplaced() throws Exception {
    Path dir = tmp.resolve("data");
    Path config = DemoCommand.prepare(dir, Duration.ofDays(10));
    Files.createDirectories(dir.resolve("pg"));
    Files.writeString(dir.resolve("pg/PG_VERSION"), "17");

    Path again = DemoCommand.prepare(dir, Duration.ofDays(10));

    assertThat(again).isEqualTo(config);
    assertThat(dir.resolve("pg")).doesNotExist();
    assertThat(dir.resolve(DemoCommand.MARKER)).exists();
    assertThat(Files.readString(config)).contains("data_dir = \".\"", "settlement_lag = \"10d\"");
  }

  @Test
  void aDirectoryTheDemoDidNotMakeIsRefusedAndKept() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("mine"));
    Files.writeString(dir.resolve("important.txt"), "keep me");

    assertThatThrownBy(() -> DemoCommand.prepare(dir, Duration.ofDays(10)))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("not empty")
        .satisfies(
            e -> assertThat(((MeterStoreException) e).kind()).isEqualTo(ErrorKind.INVALID_INPUT));
    assertThat(dir.resolve("important.txt")).exists();
  }

  @Test
  void theGeneratedConfigurationParses() throws Exception {
    Path config = DemoCommand.prepare(tmp.resolve("parse"), Duration.ofDays(10));
    var parsed = org.meterstore.config.MeterStoreConfig.load(config);
    assertThat(parsed.tables()).extracting(t -> t.name()).containsExactly("strom", "gas");
    assertThat(parsed.hot().embedded()).isTrue();
    assertThat(parsed.dataDir()).isEqualTo(tmp.resolve("parse").toAbsolutePath().normalize());
    assertThat(parsed.tables().get(0).policy().settlementLag()).isEqualTo(Duration.ofDays(10));
  }
}
