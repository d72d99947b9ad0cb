/**
 * Readings as delivered, their quality, and the version rules that decide which delivery of one
 * reading wins: {@link org.meterstore.api.reading.Version} orders corrections and {@link
 * org.meterstore.api.reading.VersionScope} bounds the competition to one network operator and one
 * balancing month.
 */
package org.meterstore.api.reading;
