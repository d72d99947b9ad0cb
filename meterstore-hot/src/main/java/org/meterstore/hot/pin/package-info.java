/**
 * Reader pins: a query registers the hot window it reads so that archival keeps the detached
 * partitions it enumerated until the query is done or the pin expires.
 */
package org.meterstore.hot.pin;
