/**
 * The demo's data: {@link org.meterstore.cli.demo.DemoMonth} generates a month of electricity and
 * gas readings for a few hundred market locations, with redeliveries, corrections and a DST day,
 * from a seed. It lives in the command, not in the test fixtures, because {@code meterstore demo}
 * runs it on a user's machine.
 */
package org.meterstore.cli.demo;
