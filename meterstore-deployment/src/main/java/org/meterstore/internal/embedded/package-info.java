/**
 * Unsupported, may change: the embedded default's PostgreSQL server (optional zonky dependency),
 * the lock that keeps one process per data directory, the password and rules that keep other local
 * users out, and the clean-up of a server that a killed process left running.
 */
package org.meterstore.internal.embedded;
