package org.meterstore.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Io;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns a failure into one clear line on the diagnostics stream and an exit code: 75 when the
 * failure is retryable ({@link MeterStoreException#isRetryable()}, a transient SQL failure), 1
 * otherwise. The stack trace is printed only with {@code --verbose}.
 */
final class Failures implements IExecutionExceptionHandler, IParameterExceptionHandler {
  private final Io io;

  Failures(Io io) {
    this.io = io;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
    PrintWriter err = io.err();
    err.println("meterstore: " + message(ex));
    if (verbose(parsed)) {
      ex.printStackTrace(err);
    }
    err.flush();
    return exitCode(ex);
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    PrintWriter err = io.err();
    err.println("meterstore: " + firstLine(ex.getMessage()));
    CommandLine cl = ex.getCommandLine();
    err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
    err.flush();
    return ExitCode.ERROR;
  }

  /** The exit code for a failure: 75 when retrying may cure it, else 1. */
  static int exitCode(Throwable ex) {
    MeterStoreException mse = find(ex);
    if (mse != null) {
      return mse.isRetryable() ? ExitCode.RETRYABLE : ExitCode.ERROR;
    }
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientException) {
        return ExitCode.RETRYABLE;
      }
      if (t instanceof SQLException sql
          && sql.getSQLState() != null
          && (sql.getSQLState().startsWith("08") || sql.getSQLState().equals("55P03"))) {
        return ExitCode.RETRYABLE;
      }
    }
    return ExitCode.ERROR;
  }

  /** One line saying what failed: the MeterStore message when there is one, else the first line. */
  static String message(Throwable ex) {
    MeterStoreException mse = find(ex);
    Throwable shown = mse != null ? mse : ex;
    String text = shown.getMessage();
    if (text == null || text.isBlank()) {
      text = shown.getClass().getSimpleName();
    }
    return firstLine(text);
  }

  private static MeterStoreException find(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof MeterStoreException mse) {
        return mse;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    String trimmed = text.strip();
    int nl = trimmed.indexOf('\n');
    return nl < 0 ? trimmed : trimmed.substring(0, nl).strip();
  }

  private static boolean verbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }
}
