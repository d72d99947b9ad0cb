package org.meterstore.cli.output;

/**
 * The exit codes of the {@code meterstore} command: 0 when the command did what it was asked, 75
 * ({@code EX_TEMPFAIL}) when it failed in a way that retrying later may cure (a lock timeout,
 * unreachable storage), and 1 for every other failure, usage errors and an unhealthy {@code status}
 * included.
 */
public final class ExitCode {
  /** Success. */
  public static final int OK = 0;

  /**
   * A failure that will happen again until something changes (input, configuration, an operator).
   */
  public static final int ERROR = 1;

  /** A failure worth retrying unchanged: {@code MeterStoreException.isRetryable()}. */
  public static final int RETRYABLE = 75;

  private ExitCode() {}
}
