/**
 * What every tier scan of a plan shares (unsupported, may change): the scan as the plan fixed it
 * ({@link org.meterstore.query.internal.exec.ScanSpec}), the source interface Calcite's generated
 * code calls, the enumerator that opens a scan lazily and times it, and Calcite's view of the
 * columns. The tiers' sources live beside their executors ({@code hot.HotSource}, {@code
 * cold.ColdSource}).
 */
package org.meterstore.query.internal.exec;
