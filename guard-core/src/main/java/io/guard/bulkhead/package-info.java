/** Bulkheads: a bound on the calls running at once against one downstream, refused beyond it. */
package io.guard.bulkhead;
