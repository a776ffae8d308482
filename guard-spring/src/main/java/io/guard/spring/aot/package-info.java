/**
 * Spring AOT and native images: what Guard reads by reflection or from the class path, declared as runtime hints
 * (registered in {@code META-INF/spring/aot.factories}), so that an application compiled ahead of time or native
 * finds its fallbacks, expressions, scripts and properties as on the JVM.
 *
 * <p>Internal: nothing here is called by applications.
 */
package io.guard.spring.aot;
