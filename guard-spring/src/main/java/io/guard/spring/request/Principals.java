package io.guard.spring.request;

import org.springframework.util.ClassUtils;

import java.security.Principal;

/**
 * {@code #principal} from a request's {@link Principal}, without a dependency on Spring Security: an anonymous
 * request has no principal name, so that a per-user limit never puts every anonymous visitor into one quota named
 * {@code anonymousUser} (Spring Security's WebFlux exchange reports its anonymous token as the principal).
 */
final class Principals {

    private static final Class<?> ANONYMOUS = anonymousTokenType();

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

    private static Class<?> anonymousTokenType() {
        String name = "org.springframework.security.authentication.AnonymousAuthenticationToken";
        ClassLoader loader = Principals.class.getClassLoader();
        return ClassUtils.isPresent(name, loader) ? ClassUtils.resolveClassName(name, loader) : null;
    }
}
