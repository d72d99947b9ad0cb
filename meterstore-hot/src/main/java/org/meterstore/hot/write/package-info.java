/**
 * What a write reports: {@link org.meterstore.hot.write.WriteResult} carries one {@link
 * org.meterstore.api.reading.WriteOutcome} per delivered reading, in delivery order, so a caller
 * can acknowledge a message reading by reading.
 */
package org.meterstore.hot.write;
