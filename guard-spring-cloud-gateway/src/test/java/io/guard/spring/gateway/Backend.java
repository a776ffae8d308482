package io.guard.spring.gateway;

import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** The service behind the gateway: a Reactor Netty server on 127.0.0.1 answering every GET with its path. */
class Backend implements AutoCloseable {

    private final DisposableServer server;

    private Backend(DisposableServer server) {
        this.server = server;
    }

    /** A backend a test runs (or leaves unreachable) itself, at {@code uri}. */
    static final class Fixed extends Backend {

        private final String uri;

        Fixed(String uri) {
            super(null);
            this.uri = uri;
        }

        @Override
        String uri() {
            return uri;
        }

        @Override
        public void close() {
        }
    }

    static Backend start() {
        return new Backend(HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes.get("/**", (request, response) ->
                        response.sendString(Mono.just("backend " + request.uri()))))
                .bindNow());
    }

    String uri() {
        return "http://127.0.0.1:" + server.port();
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
