/**
 * Commodities (Sparten) and the units their quantities are stated in. Kept apart from readings and
 * the calendar because both depend on it: the gas day exists only for {@code GAS}.
 */
package org.meterstore.api.commodity;
