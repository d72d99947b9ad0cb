/**
 * The verbs of the {@code meterstore} command, one class each. A verb opens the deployment named by
 * {@code --config}, does one thing, prints one document and returns its exit code; failures
 * propagate as {@code MeterStoreException}s, which the command turns into one line and an exit
 * code.
 */
package org.meterstore.cli.command;
