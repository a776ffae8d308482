package io.guard.spring.request;

import org.springframework.util.ClassUtils;

/**
 * Finds the web request of a call on the calling thread, loading the servlet classes only when they are there (a
 * WebFlux or non-web application has none). WebFlux exchanges are not thread-bound: {@code ReactorGuards} finds them
 * in the Reactor context.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class CurrentRequests {

    private static final boolean SERVLET = ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest",
            CurrentRequests.class.getClassLoader())
            && ClassUtils.isPresent("org.springframework.web.context.request.RequestContextHolder",
            CurrentRequests.class.getClassLoader());

    private CurrentRequests() {
    }

    /** The servlet request bound to the calling thread; null outside one. */
    public static CurrentRequest ofCallingThread() {
        return SERVLET ? ServletCurrentRequest.ofCallingThread() : null;
    }
}
