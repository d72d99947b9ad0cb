/**
 * {@code meterstore serve}: MeterStore's SQL surface over Arrow Flight SQL, read-only, behind TLS
 * and per-user credentials ({@link org.meterstore.server.SqlServer}); the server holds the tiers'
 * credentials, clients never see them (docs/serving.md, ADR 0026).
 */
package org.meterstore.server;
