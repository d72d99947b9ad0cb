/**
 * Test fixtures over both tiers, shipped as meterstore-maintenance's test-jar: {@link
 * org.meterstore.maintenance.testing.TwoTiers} opens a HotStore and a ColdStore on a test database
 * and moves data between them only through the real {@link
 * org.meterstore.maintenance.archival.Archiver}. It lives here rather than in meterstore-testing
 * because the hot and cold modules' tests depend on meterstore-testing (a cycle), and here rather
 * than in query because query is not below maintenance. Test code only; not a supported API.
 */
package org.meterstore.maintenance.testing;
