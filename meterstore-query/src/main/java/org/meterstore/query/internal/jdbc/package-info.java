/**
 * The JDBC face of a catalog (unsupported, may change): proxies around Calcite's connection and
 * statements that refuse everything but queries, give each statement its {@code QueryContext}
 * (released when the statement closes), time planning, and turn MeterStore's errors into {@code
 * SQLException}s that keep the original as their cause; the connect-time settings tools change and
 * the {@code DatabaseMetaData} they read (primary keys from the table definitions).
 */
package org.meterstore.query.internal.jdbc;
