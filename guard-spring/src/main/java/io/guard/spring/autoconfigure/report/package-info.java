/**
 * The one start-up report: every {@code guard.*} mistake found before anything is built from the values
 * ({@link io.guard.spring.autoconfigure.report.GuardPropertiesCheck}), the failure analyzers that print it and the
 * annotation mistakes, the Boot-line check of the starters and the warning about configured instances nothing uses.
 *
 * <p>Internal: not an API. The public types are used by the auto-configuration, the starters and the gateway module.
 */
package io.guard.spring.autoconfigure.report;
