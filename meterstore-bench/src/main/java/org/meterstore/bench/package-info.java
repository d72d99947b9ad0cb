/**
 * The benchmark harness of issues #9 and #15: one command ({@code ./bench quick|full}) that
 * measures MeterStore's public API against the baselines a user would pick instead (raw {@code
 * COPY}, plain PostgreSQL, {@code COPY TO} + Parquet, DuckDB over the same Parquet files), each in
 * the same run on the same embedded PostgreSQL, and writes {@code target/bench/results.json} and
 * {@code results.md}. Not a library: it prints, times with {@code System.nanoTime} and starts
 * threads.
 */
package org.meterstore.bench;
