/**
 * The contract of one unit of cold work (unsupported, may change): the request ({@code
 * ColdRequest}), the context every unit reads from ({@code UnitContext}), the unit ({@code
 * ScanUnit}) and what one run of it did, with its metrics.
 */
package org.meterstore.query.internal.cold.unit;
