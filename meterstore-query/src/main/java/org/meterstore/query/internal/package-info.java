/**
 * MeterStore's query implementation. Unsupported: anything in here may change without notice; use
 * {@link org.meterstore.query.QueryEngine} and the {@code jdbc:meterstore:} driver instead.
 */
package org.meterstore.query.internal;
