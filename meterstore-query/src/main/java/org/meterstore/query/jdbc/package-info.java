/**
 * The {@code jdbc:meterstore:} driver for BI tools and the CLI. The driver parses the URL; which
 * deployment a configuration file describes is resolved by a {@link
 * org.meterstore.query.jdbc.DeploymentOpener} found with {@link java.util.ServiceLoader}, so that
 * configuration parsing lives with the module that owns it.
 */
package org.meterstore.query.jdbc;
