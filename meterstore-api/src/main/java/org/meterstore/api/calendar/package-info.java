/**
 * The metering calendar: balancing days, gas days, balancing months and resolutions, all in
 * Europe/Berlin and exact across daylight-saving changes. It lives apart from readings and tables
 * because every tier needs the same answers to "which day is this reading booked on" and "how many
 * intervals make that day complete", and those answers must not depend on the JVM's default zone.
 */
package org.meterstore.api.calendar;
