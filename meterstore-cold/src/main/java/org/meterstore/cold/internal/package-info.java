/**
 * The cold tier's implementation. Unsupported: these classes may change in any release; use the
 * interfaces and records of {@code org.meterstore.cold} and its public sub-packages.
 */
package org.meterstore.cold.internal;
