/**
 * Unsupported, and may change or disappear in any release: the crash-test seam of the archival run.
 * {@link org.meterstore.maintenance.internal.fault.FaultInjection} installs a {@link
 * org.meterstore.maintenance.internal.fault.FaultHook} for the runs one thread makes, and the run
 * calls it at each {@link org.meterstore.maintenance.internal.fault.FaultPoint}, so that tests can
 * stop or kill a process exactly there. It lives here, not on a public builder, so that no public
 * signature names it; it depends on nothing else of MeterStore, so every maintenance package may
 * use it without a cycle.
 */
package org.meterstore.maintenance.internal.fault;
