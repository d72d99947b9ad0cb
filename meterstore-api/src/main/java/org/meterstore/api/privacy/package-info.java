/**
 * Privacy rules that need no database: when a subject's link to its readings comes due for erasure
 * under § 60 Abs. 6 MsbG ("at the latest three years after the end of the calendar year of
 * collection") or under a rolling "no longer necessary" period.
 */
package org.meterstore.api.privacy;
