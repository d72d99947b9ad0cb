/**
 * The deployment's configuration: one TOML file ({@code meterstore.toml}) parsed once into
 * immutable records ({@link org.meterstore.config.MeterStoreConfig} and its sections). Unknown
 * keys, durations without units and unset {@code ${ENV}} variables are {@code CONFIG} errors naming
 * the key; secrets are {@link org.meterstore.config.Secret}s and never printed. Every key is
 * documented in {@code docs/configuration.md}.
 */
package org.meterstore.config;
