package io.guard.spring.request;

import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;

import java.security.Principal;

/**
 * {@code #principal} from a request's {@link Principal}: an anonymous request has no principal name, so that a
 * per-user limit never puts every anonymous visitor into one quota named {@code anonymousUser} (Spring Security's
 * WebFlux exchange reports its anonymous token as the principal).
 *
 * <p>A servlet request without a principal falls back to Spring Security's current authentication, where Spring
 * Security is present: a request that never passed the security filter chain (standalone MockMvc with
 * {@code @WithMockUser}, a filter that sets the context without wrapping the request) still has the user the
 * application's own {@code @PreAuthorize} checks see. Spring Security stays optional: its classes are touched only
 * when they are on the class path.
 */
final class Principals {

    private static final ClassLoader LOADER = Principals.class.getClassLoader();
    private static final Class<?> ANONYMOUS = type(
            "org.springframework.security.authentication.AnonymousAuthenticationToken");
    private static final boolean SECURITY_CONTEXT = type(
            "org.springframework.security.core.context.SecurityContextHolder") != null;

    private Principals() {
    }

    /** The principal's name; null when there is none, it is anonymous, or its name is blank. */
    static String name(Principal principal) {
        if (principal == null || (ANONYMOUS != null && ANONYMOUS.isInstance(principal))) {
            return null;
        }
        String name = principal.getName();
        return name == null || name.isBlank() ? null : name;
    }

    /** {@link #name} of the request's principal, or else of Spring Security's current authentication. */
    static String nameOrAuthenticated(Principal fromRequest) {
        if (fromRequest != null || !SECURITY_CONTEXT) {
            return name(fromRequest);
        }
        return name(SecurityContextPrincipal.current());
    }

    private static Class<?> type(String name) {
        return ClassUtils.isPresent(name, LOADER) ? ClassUtils.resolveClassName(name, LOADER) : null;
    }

    /** Loaded only when Spring Security is on the class path. */
    private static final class SecurityContextPrincipal {

        static Principal current() {
            return SecurityContextHolder.getContext().getAuthentication();
        }
    }
}
