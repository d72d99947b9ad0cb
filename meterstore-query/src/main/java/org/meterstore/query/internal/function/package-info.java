/**
 * MeterStore's SQL functions (unsupported, may change): calendar ({@code meter_balancing_day},
 * {@code meter_gas_day}, {@code meter_expected_intervals}), OBIS ({@code obis_is_import}, {@code
 * obis_is_export}), quality ({@code quality_is_billable}) and the {@code completeness} table
 * function. All delegate to the domain rules of {@code meterstore-api}.
 */
package org.meterstore.query.internal.function;
