package org.meterstore.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/** The paths {@code meterstore import} reads, and its progress line. */
class ImportFilesTest {
  @TempDir Path dir;

  @Test
  void aQuotedGlobIsExpandedByNameAndPathsStayAsGiven() throws Exception {
    Path b = Files.writeString(dir.resolve("2024-02.csv"), "");
    Path a = Files.writeString(dir.resolve("2024-01.csv"), "");
    Files.writeString(dir.resolve("2024-01.parquet"), "");
    Path sub = Files.createDirectories(dir.resolve("more"));

    assertThat(ImportFiles.expand(List.of(dir + "/2024-*.csv", sub.toString())))
        .containsExactly(a, b, sub);
  }

  @Test
  void aPathThatDoesNotExistOrAGlobThatMatchesNothingIsRefused() {
    assertThatThrownBy(() -> ImportFiles.expand(List.of(dir + "/missing.csv")))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("no such file or directory");
    assertThatThrownBy(() -> ImportFiles.expand(List.of(dir + "/*.csv")))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("the pattern matches no file");
    assertThatThrownBy(() -> ImportFiles.expand(List.of(dir + "/*/x.csv")))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("only match file names");
  }

  @Test
  void theProgressLineGivesTheShareTheRateAndTheTimeLeft() {
    AtomicLong nanos = new AtomicLong(1_000);
    ImportRate rate = new ImportRate(nanos::get);

    assertThat(rate.describe(0, 2_800_000)).isEqualTo("0 / 2,800,000 readings (0 %)");
    nanos.addAndGet(Duration.ofSeconds(3).toNanos());
    assertThat(rate.describe(1_200_000, 2_800_000))
        .isEqualTo("1,200,000 / 2,800,000 readings (42 %), 400,000/s, 4 s left");
    nanos.addAndGet(Duration.ofSeconds(3).toNanos());
    assertThat(rate.describe(2_800_000, 2_800_000))
        .isEqualTo("2,800,000 / 2,800,000 readings (100 %), 466,667/s");
    assertThat(ImportRate.left(Duration.ofSeconds(250))).isEqualTo("4 min 10 s");
    assertThat(ImportRate.left(Duration.ofMinutes(125))).isEqualTo("2 h 05 min");
  }
}
