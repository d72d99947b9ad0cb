/**
 * Routing a batch by the watermark (DESIGN § 4): readings at or above W to PostgreSQL, late
 * corrections below it to Iceberg, re-routed when archival moves W during the write. Internal to
 * the deployment module; applications call {@code MeterTable.append}.
 */
package org.meterstore.internal.write;
