/**
 * The reliability suite: tests that attack the whole store through its public surface (the façade,
 * JDBC, the configuration) the way production will — generated histories compared with the
 * reference model, crashes, outages, hostile input and a least-privilege role. Each test states the
 * promise it checks ("nothing lost, nothing doubled, never a wrong number") in its Javadoc.
 */
package org.meterstore.reliability;
