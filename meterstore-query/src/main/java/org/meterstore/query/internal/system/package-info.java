/**
 * The {@code system} schema (unsupported, may change): {@code tables}, {@code config}, {@code
 * resolution} and {@code snapshots}, computed by {@code QueryEngine.refreshSystemTables(now)} and
 * only then, so that an ordinary query never pays for a round trip to both tiers.
 */
package org.meterstore.query.internal.system;
