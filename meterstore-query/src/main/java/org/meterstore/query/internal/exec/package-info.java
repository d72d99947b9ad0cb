/**
 * What every tier scan of a plan shares (unsupported, may change): the scan as the plan fixed it
 * ({@link org.meterstore.query.internal.exec.ScanSpec}), the source interface Calcite's generated
 * code calls, the enumerator that opens a scan lazily and times it, Calcite's view of the columns,
 * and, until it moves beside the cold executor, the cold scan source.
 */
package org.meterstore.query.internal.exec;
