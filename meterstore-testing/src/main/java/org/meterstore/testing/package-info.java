/**
 * Test fixtures shared by every MeterStore module: {@link org.meterstore.testing.PostgresExtension}
 * gives an integration test class a real PostgreSQL (a Testcontainers container where a Docker
 * engine answers, embedded binaries from Maven where none does, or a server named by environment
 * variables) with a fresh database per test class. Used in test scope only.
 */
package org.meterstore.testing;
