/**
 * What a write reports: {@link org.meterstore.hot.write.WriteResult} carries one {@link
 * org.meterstore.api.reading.WriteOutcome} per delivered reading, in delivery order, so a caller
 * can acknowledge a message reading by reading. {@link
 * org.meterstore.hot.write.BelowFloorException} is the typed refusal of readings that belong to the
 * table's archived past (below its floor, or in a detached partition), so a caller can route them
 * to the cold tier as late corrections.
 */
package org.meterstore.hot.write;
