/**
 * The {@code meterstore} command line: {@link org.meterstore.cli.Main} runs one command against a
 * set of streams ({@link org.meterstore.cli.output.Io}) and returns its exit code; {@link
 * org.meterstore.cli.command.MeterStoreCommand} holds the global options ({@code --config}, {@code
 * --format}, {@code --verbose}). The verbs live in {@code org.meterstore.cli.command}, the demo's
 * data generator in {@code org.meterstore.cli.demo}. This is an application: it prints to the
 * process's streams and reads the wall clock, through {@code WallClock}, only when a verb is not
 * given {@code --now}.
 */
package org.meterstore.cli;
