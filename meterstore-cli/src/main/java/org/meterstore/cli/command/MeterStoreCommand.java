package org.meterstore.cli.command;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Io;
import org.meterstore.cli.output.JsonRenderer;
import org.meterstore.cli.output.TableRenderer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code meterstore} command: global options shared by every verb (they may be given before or
 * after the verb) and the streams of this run. A verb reaches it through {@code @ParentCommand}.
 */
@Command(
    name = "meterstore",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT,
    versionProvider = VersionProvider.class,
    description =
        "Operate a MeterStore deployment (PostgreSQL hot tier + Apache Iceberg cold tier).",
    footer = {
      "",
      "Exit codes: 0 ok, 1 error (or an unhealthy status), 75 retryable (try again later).",
      "Documentation: docs/cli.md"
    })
public final class MeterStoreCommand implements Callable<Integer> {
  private final Io io;

  @Spec private CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "<file>",
      scope = ScopeType.INHERIT,
      description = "The configuration file (default: ${DEFAULT-VALUE}).")
  private Path config = Path.of("meterstore.toml");

  @Option(
      names = "--format",
      paramLabel = "table|json",
      scope = ScopeType.INHERIT,
      description = "How results are printed: table (aligned columns) or json (default: table).")
  private Format format = Format.TABLE;

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "Print stack traces with errors.")
  private boolean verbose;

  /** The top command, writing to {@code io}. */
  public MeterStoreCommand(Io io) {
    this.io = io;
  }

  /** Without a verb: the usage, and exit code 1. */
  @Override
  public Integer call() {
    spec.commandLine().usage(io.err());
    return ExitCode.ERROR;
  }

  /** The streams of this run. */
  public Io io() {
    return io;
  }

  /** The configuration file named by {@code --config}. */
  public Path configFile() {
    return config;
  }

  /** The output format chosen by {@code --format}. */
  public Format format() {
    return format;
  }

  /** Whether {@code --verbose} was given. */
  public boolean verbose() {
    return verbose;
  }

  /** Prints {@code document} to the result stream in the chosen format. */
  public void print(Document document) {
    if (format == Format.JSON) {
      JsonRenderer.render(document, io.out());
    } else {
      TableRenderer.render(document, io.out());
    }
    io.out().flush();
  }

  /** Prints one line to the diagnostics stream, prefixed with the command's name. */
  public void warn(String line) {
    io.err().println("meterstore: " + line);
    io.err().flush();
  }
}
