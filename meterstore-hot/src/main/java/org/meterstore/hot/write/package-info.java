/**
 * What a hot write can refuse beyond the api's rules: {@link
 * org.meterstore.hot.write.BelowFloorException} is the typed refusal of readings that belong to the
 * table's archived past (below its floor, or in a detached partition), so a caller can route them
 * to the cold tier as late corrections. A write reports an {@link
 * org.meterstore.api.reading.WriteResult}: one outcome per delivered reading, in delivery order,
 * every one in the hot tier.
 */
package org.meterstore.hot.write;
