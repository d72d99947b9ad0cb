/**
 * MeterStore's own schema: the versioned migrations that create its registry, and the DDL of each
 * declared table's partitioned parent with its CHECK constraints and the exclusion constraints its
 * partitions carry. Unsupported internal API.
 */
package org.meterstore.hot.internal.schema;
