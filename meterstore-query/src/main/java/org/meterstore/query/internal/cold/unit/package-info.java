/**
 * The units a cold scan is split into (unsupported, may change): the planner groups the planned
 * files by month and makes a unit of each file that file statistics show needs no resolution, one
 * merge unit of a month's other files, or one records unit of a month with delete files or unsorted
 * files to resolve. A unit is read a batch at a time, with what every unit of the scan shares.
 */
package org.meterstore.query.internal.cold.unit;
