package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.cli.output.ExitCode;

/** The parts of the command that need no store: usage, option errors, init, a missing file. */
class CommandLineTest {
  @TempDir Path tmp;

  @Test
  void withoutAVerbTheUsageGoesToStderrAndTheExitCodeIsOne() {
    Cli.Run run = Cli.raw("");
    assertThat(run.code()).isEqualTo(ExitCode.ERROR);
    assertThat(run.err()).contains("Usage: meterstore", "demo", "purge", "Exit codes");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void everyVerbHasHelp() {
    for (String verb :
        new String[] {
          "init",
          "check",
          "create",
          "status",
          "archive",
          "maintain",
          "reassert-watermark",
          "query",
          "explain",
          "completeness",
          "snapshots",
          "tag",
          "untag",
          "tags",
          "pin",
          "unpin",
          "pins",
          "orphans",
          "erasures",
          "purge",
          "demo"
        }) {
      Cli.Run run = Cli.raw("", verb, "--help");
      assertThat(run.code()).as(verb).isZero();
      assertThat(run.out()).as(verb).contains("Usage: meterstore " + verb);
    }
  }

  @Test
  void aBadOptionValueIsOneLineAndExitOne() {
    Cli.Run run = Cli.raw("", "status", "--now", "yesterday");
    assertThat(run.code()).isEqualTo(ExitCode.ERROR);
    assertThat(run.err()).contains("'yesterday' is not an ISO-8601 instant");
    Cli.Run interval = Cli.raw("", "maintain", "--interval", "15");
    assertThat(interval.code()).isEqualTo(ExitCode.ERROR);
    assertThat(interval.err()).contains("with a unit");
  }

  /** Issue #32: compaction is the loop's default; --no-compact turns it off. */
  @Test
  void maintainCompactsUnlessToldNotTo() {
    Cli.Run help = Cli.raw("", "maintain", "--help");
    assertThat(help.code()).isZero();
    assertThat(help.out()).contains("--[no-]compact").contains("(unless --no-compact)");
  }

  /** Issue #19 item 2: the loop ignored --now and archived at the wall clock. */
  @Test
  void maintainRefusesNowWithoutOnceBeforeOpeningAnything() {
    Cli.Run run =
        Cli.raw(
            "",
            "--config",
            tmp.resolve("never-read.toml").toString(),
            "maintain",
            "--interval",
            "1h",
            "--now",
            "2026-11-09T11:00:00Z");
    assertThat(run.code()).isEqualTo(ExitCode.ERROR);
    assertThat(run.err().strip())
        .contains("--now", "2026-11-09T11:00:00Z", "only with --once", "maintain --once --now")
        .doesNotContain("configuration")
        .doesNotContain("\n");
    assertThat(run.out()).isEmpty();
  }

  /** Issue #19 item 9: a coded value with a quote passed check and failed only at create. */
  @Test
  void checkRefusesACodedValueThatCreateCouldNotWrite() throws Exception {
    Path file = tmp.resolve("coded.toml");
    java.nio.file.Files.writeString(
        file,
        "[[tables]]\nname = \"strom\"\n\n[[tables.extra_columns]]\nname = \"tarif\"\n"
            + "role = \"coded\"\nvalues = [\"HT\", \"N'T\"]\n");
    Cli.Run run = Cli.raw("", "--config", file.toString(), "check");
    assertThat(run.code()).as(run.toString()).isEqualTo(ExitCode.ERROR);
    // the refused text itself is not shown: it may be a secret pasted into the wrong key
    assertThat(run.err().strip())
        .contains("tarif", "(value not shown)", "quote")
        .doesNotContain("N'T", "\n");
  }

  @Test
  void aMissingConfigurationNamesTheFileAndInit() {
    Cli.Run run = Cli.raw("", "--config", tmp.resolve("nope.toml").toString(), "status");
    assertThat(run.code()).isEqualTo(ExitCode.ERROR);
    assertThat(run.err().strip())
        .startsWith("meterstore: Cannot read the configuration")
        .contains("nope.toml", "meterstore init")
        .doesNotContain("\n");
  }

  @Test
  void initWritesAParsableFileOnceAndRefusesToOverwrite() throws Exception {
    Path file = tmp.resolve("etc/meterstore.toml");
    Cli.Run first = Cli.raw("", "--config", file.toString(), "--format", "json", "init");
    assertThat(first.code()).as(first.toString()).isZero();
    assertThat(first.json().get("written").asText()).isEqualTo(file.toString());
    var config = org.meterstore.config.MeterStoreConfig.load(file);
    assertThat(config.hot().embedded()).isTrue();
    assertThat(config.tables()).hasSize(2);
    assertThat(Files.readString(file)).contains("# url = \"jdbc:postgresql:");

    Cli.Run again = Cli.raw("", "init", "--config", file.toString());
    assertThat(again.code()).isEqualTo(ExitCode.ERROR);
    assertThat(again.err()).contains("exists", "--force");
    assertThat(Cli.raw("", "init", "--force", "--config", file.toString()).code()).isZero();
  }

  @Test
  void formatIsCaseInsensitiveBeforeAndAfterTheVerb() throws Exception {
    Path file = tmp.resolve("m.toml");
    assertThat(Cli.raw("", "--format", "JSON", "--config", file.toString(), "init").out())
        .startsWith("{");
    Files.delete(file);
    assertThat(Cli.raw("", "init", "--config", file.toString(), "--format", "json").out())
        .startsWith("{");
  }
}
