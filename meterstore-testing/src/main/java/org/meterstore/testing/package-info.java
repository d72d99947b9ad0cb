/**
 * Test fixtures shared by every MeterStore module: {@link org.meterstore.testing.PostgresExtension}
 * gives an integration test class a real PostgreSQL (a Testcontainers container where a Docker
 * engine answers, embedded binaries from Maven where none does, or a server named by environment
 * variables) with a fresh database per test class; {@link org.meterstore.testing.ObjectStoreServer}
 * gives it an S3-compatible server the same way (MinIO in a container, or s3proxy in the JVM), and
 * {@link org.meterstore.testing.ObjectStoreFront} makes that server hang or refuse. Used in test
 * scope only.
 */
package org.meterstore.testing;
