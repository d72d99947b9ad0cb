/**
 * The resolved relation of each table as an Iceberg view engines can name ({@code
 * <table>_current}): {@link org.meterstore.cold.view.ResolvedView}, written after every commit that
 * lands and brought up to date before reclamation; its SQL comes from a {@link
 * org.meterstore.cold.view.ResolvedViewSql} the deployment supplies (docs/interop.md, ADR 0025).
 */
package org.meterstore.cold.view;
