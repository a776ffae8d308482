package io.guard.spring.autoconfigure;

import io.guard.spring.routes.RouteDefinition;


import java.util.ArrayList;
import java.util.List;

/** One {@code guard.rate-limit.routes[i]}: a limit applied by URL pattern, by a filter, before any handler. */
public class RouteProperties {

    /** The limit's name; its settings come from guard.rate-limit.instances.<name>, then guard.rate-limit.defaults. */
    private String name;

    /** Path patterns within the application, in Spring's PathPattern syntax, e.g. /api/** or /static/*.css. */
    private List<String> paths = new ArrayList<>();

    /** HTTP methods the route applies to, e.g. [GET, POST] (default: all). */
    private List<String> methods = new ArrayList<>();

    /** SpEL over the request (#request, #clientIp, #headers) giving the key (default: one key for the route). */
    private String key;

    /** Permits each matching request takes (default 1); with cost-header, the estimate taken at admission. */
    private long permits = 1;

    /** Response header holding what a request cost (a whole number), charged after the response, e.g. X-Usage-Tokens. */
    private String costHeader;

    /** What a request whose handling failed with an exception is charged: estimate (default) or none. */
    private String costOnFailure;

    public RouteDefinition toDefinition() {
        return new RouteDefinition(name, paths, methods, key, permits, costHeader, costOnFailure);
    }

    public String getCostHeader() {
        return costHeader;
    }

    public void setCostHeader(String costHeader) {
        this.costHeader = costHeader;
    }

    public String getCostOnFailure() {
        return costOnFailure;
    }

    public void setCostOnFailure(String costOnFailure) {
        this.costOnFailure = costOnFailure;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public List<String> getPaths() {
        return paths;
    }

    public void setPaths(List<String> paths) {
        this.paths = paths;
    }

    public List<String> getMethods() {
        return methods;
    }

    public void setMethods(List<String> methods) {
        this.methods = methods;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public long getPermits() {
        return permits;
    }

    public void setPermits(long permits) {
        this.permits = permits;
    }
}
