/**
 * What every refusal Guard throws has in common ({@link io.guard.refusal.Refusal}): its kind, how long until asking
 * again may succeed, and which limit, breaker or bulkhead refused. The HTTP answers are built from it, in one table.
 */
package io.guard.refusal;
