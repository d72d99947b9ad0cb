package org.meterstore.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import org.meterstore.cli.command.MeterStoreCommand;
import org.meterstore.cli.command.Verbs;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Io;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

/**
 * The entry point of the {@code meterstore} command. {@link #run} executes one command line against
 * the given streams and returns its exit code, which is how tests drive every verb in-process.
 */
public final class Main {
  private Main() {}

  /** Runs the command on the process's streams and exits with its exit code. */
  public static void main(String[] args) {
    boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
    if (verbose) {
      // before the first logger exists: slf4j-simple reads its level once
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
    }
    JulBridge.install(verbose);
    System.exit(run(Io.system(), args));
  }

  /**
   * Runs one command line.
   *
   * @return the exit code: {@value ExitCode#OK}, {@value ExitCode#ERROR} or {@value
   *     ExitCode#RETRYABLE}
   */
  public static int run(Io io, String... args) {
    int code = commandLine(io).execute(args);
    io.out().flush();
    io.err().flush();
    return code;
  }

  /** The parsed command tree with every verb, writing to {@code io}. */
  public static CommandLine commandLine(Io io) {
    CommandLine cl = new CommandLine(new MeterStoreCommand(io));
    Verbs.addTo(cl);
    // after the verbs: these settings reach only the subcommands that exist when they are made
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.registerConverter(Instant.class, Main::instant);
    cl.registerConverter(Duration.class, Durations::parse);
    cl.registerConverter(YearMonth.class, Main::yearMonth);
    Failures failures = new Failures(io);
    cl.setOut(io.out());
    cl.setErr(io.err());
    cl.setExecutionExceptionHandler(failures);
    cl.setParameterExceptionHandler(failures);
    return cl;
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "'" + text + "' is not an ISO-8601 instant (e.g. 2026-11-01T06:00:00Z)");
    }
  }

  private static YearMonth yearMonth(String text) {
    try {
      return YearMonth.parse(text);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + text + "' is not a month like 2026-10");
    }
  }
}
