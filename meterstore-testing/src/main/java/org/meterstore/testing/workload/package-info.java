/**
 * A realistic, reproducible metering workload (market locations × interval readings over days,
 * electricity and gas, corrections at higher versions, redeliveries, clock-change days) and an
 * independent reference model of version resolution to compare stored or queried answers with.
 * Shared by integration tests, benchmarks and the demo.
 */
package org.meterstore.testing.workload;
