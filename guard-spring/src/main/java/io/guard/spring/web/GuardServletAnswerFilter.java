package io.guard.spring.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Gives refusals raised outside Spring MVC (in a servlet filter: login throttling is the classic case) the same
 * 429/503/400 answers as refusals raised in a controller, instead of the container's 500. Ordered ahead of the
 * application's and Spring Security's filters so that it wraps them.
 */
public class GuardServletAnswerFilter extends OncePerRequestFilter implements Ordered {

    /** Just inside Spring's character-encoding filter, outside every other filter. */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1;

    private final GuardServletExceptionHandler answers;

    public GuardServletAnswerFilter(GuardServletExceptionHandler answers) {
        this.answers = answers;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException | IOException | RuntimeException error) {
            // Servlet containers and MVC wrap the refusal: find it in the cause chain.
            Throwable refusal = RefusalAnswers.refusal(error);
            if (refusal == null || !answers.answer(refusal, request, response)) {
                throw error;
            }
        }
    }
}
