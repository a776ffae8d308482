package io.guard.spring.web;

import io.guard.spring.ratelimit.RateLimitExceededException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Spring MVC answers for Guard's refusals (see {@link RefusalAnswers}), as a {@link HandlerExceptionResolver} that
 * runs before {@code @ExceptionHandler} resolution. It steps aside when the application maps the refusal itself
 * (an {@code @ExceptionHandler} for a Guard exception type, in the controller or an applicable advice): the more
 * specific handler wins, Guard's answer is the default, and a catch-all {@code @ExceptionHandler(Exception.class)}
 * does not turn a 429 into a 500. Browsers (Accept prefers {@code text/html}) get the application's error page for
 * the status instead of the problem detail, with the same header fields. {@link GuardServletAnswerFilter} gives the same answers to refusals raised in servlet
 * filters. Replace it by declaring a bean of this type.
 */
public class GuardServletExceptionHandler implements HandlerExceptionResolver, Ordered {

    /** Ahead of Spring MVC's own resolvers (order 0), behind Spring Boot's error-attribute recorder. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    private static final Logger log = LoggerFactory.getLogger(GuardServletExceptionHandler.class);

    private final ServletProblemWriter writer;
    private final ApplicationExceptionHandlers applicationHandlers;

    /**
     * @param converters the message converters that write problem details (Spring MVC's)
     * @param context    where the application's {@code @ControllerAdvice} beans are found
     */
    public GuardServletExceptionHandler(Supplier<List<HttpMessageConverter<?>>> converters,
                                        ApplicationContext context) {
        this.writer = new ServletProblemWriter(converters);
        this.applicationHandlers = new ApplicationExceptionHandlers(context);
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
                                         Exception error) {
        Optional<Class<? extends Throwable>> guardType = RefusalAnswers.guardType(error);
        if (guardType.isEmpty()) {
            return null;
        }
        Class<?> handlerType = handler instanceof HandlerMethod method ? method.getBeanType() : null;
        if (applicationHandlers.handles(handlerType, error, guardType.get())) {
            return null;
        }
        return answer(error, request, response) ? new ModelAndView() : null;
    }

    /** Writes Guard's answer to {@code error} if it is one of Guard's refusals; false if it is not or cannot be. */
    boolean answer(Throwable error, HttpServletRequest request, HttpServletResponse response) {
        Optional<ResponseEntity<ProblemDetail>> answer = problem(error, request, response);
        if (answer.isEmpty() || response.isCommitted()) {
            return false;
        }
        try {
            response.resetBuffer();
            if (HtmlClients.prefersHtml(request.getHeaders(HttpHeaders.ACCEPT))) {
                ServletErrorPage.send(answer.get(), response);
            } else {
                writer.write(answer.get(), response);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            log.warn("Could not write Guard's {} answer: {}", answer.get().getStatusCode(), e.toString());
            return false;
        }
    }

    private static Optional<ResponseEntity<ProblemDetail>> problem(Throwable error, HttpServletRequest request,
                                                                    HttpServletResponse response) {
        if (error instanceof RateLimitExceededException e) {
            // Recording (again) sets the RateLimit fields on the response, whatever happened to it since.
            ServletRateLimitDecisionSinks.decisions(request, response).record(e.policy(), e.decision());
        }
        return RefusalAnswers.of(error, request.getRequestURI());
    }
}
