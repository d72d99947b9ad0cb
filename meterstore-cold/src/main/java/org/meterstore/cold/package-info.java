/**
 * The cold tier in Apache Iceberg: catalogs, table layout, Parquet writes and the commits that
 * carry the watermark, snapshots, expiry and the schema drift check.
 */
package org.meterstore.cold;
