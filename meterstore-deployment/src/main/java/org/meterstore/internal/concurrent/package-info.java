/** Threads the deployment module starts for the length of one call, and how work passes them. */
package org.meterstore.internal.concurrent;
