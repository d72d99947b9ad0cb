/**
 * The {@code jdbc:meterstore:config=<path>} driver for BI tools, sqlline and the CLI: it parses the
 * URL, opens the deployment the configuration file describes with {@link
 * org.meterstore.MeterStores#open} and hands out read-only connections of it.
 */
package org.meterstore.jdbc;
