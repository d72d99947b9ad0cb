package org.meterstore.cli.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code meterstore init}: writes a commented configuration file for the embedded default. */
@Command(
    name = "init",
    description = {
      "Write a commented meterstore.toml for the embedded default.",
      "",
      "Write a commented meterstore.toml (the --config path): the embedded default under a data",
      "directory and two tables, strom (electricity) and gas. Refuses to overwrite without --force."
    })
final class InitCommand extends Verb {
  @Option(
      names = "--data-dir",
      paramLabel = "<dir>",
      description = "The data_dir written into the file (default: ${DEFAULT-VALUE}).")
  String dataDir = "meterstore-data";

  @Option(names = "--force", description = "Overwrite an existing file.")
  boolean force;

  @Override
  public Integer call() {
    Path file = root.configFile();
    if (Files.exists(file) && !force) {
      throw new MeterStoreException(
          ErrorKind.INVALID_INPUT,
          "Cannot write " + file + ": it exists (pass --force to overwrite)");
    }
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(
          file, ConfigTemplate.render(dataDir, Duration.ofDays(30)), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file + ": " + e.getMessage(), e);
    }
    root.print(
        new Document()
            .put("written", file.toString())
            .put("data_dir", dataDir)
            .put("tables", java.util.List.of("strom", "gas"))
            .put("next", "meterstore --config " + file + " create"));
    return ExitCode.OK;
  }
}
