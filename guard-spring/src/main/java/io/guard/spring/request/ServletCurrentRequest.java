package io.guard.spring.request;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The servlet request bound to the calling thread by Spring MVC's {@code DispatcherServlet} (or Boot's
 * {@code RequestContextFilter}). Its remote address is already the forwarded client's when a
 * {@code ForwardedHeaderFilter} or the server's {@code RemoteIpValve} ran before it.
 *
 * <p>Internal: public only because the tests of Guard's {@code method} package build one; not an API.
 */
public record ServletCurrentRequest(HttpServletRequest request) implements CurrentRequest {

    /** The request of the calling thread, or null outside a servlet request; see {@link CurrentRequests}. */
    static CurrentRequest ofCallingThread() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        return attributes instanceof ServletRequestAttributes servlet
                ? new ServletCurrentRequest(servlet.getRequest()) : null;
    }

    @Override
    public String clientIp() {
        return request.getRemoteAddr();
    }

    @Override
    public String principal() {
        return Principals.nameOrAuthenticated(request.getUserPrincipal());
    }

    @Override
    public Map<String, String> headers() {
        return new RequestHeaders(request::getHeader, () -> {
            Map<String, String> all = new LinkedHashMap<>();
            Collections.list(request.getHeaderNames()).forEach(name -> all.put(name, request.getHeader(name)));
            return all;
        });
    }

    @Override
    public Object nativeRequest() {
        return request;
    }
}
