package io.guard.spring.request;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code #principal} on a servlet request: the request's principal, or Spring Security's current authentication for a
 * request that never passed the security filter chain (standalone MockMvc with {@code @WithMockUser}).
 */
class ServletPrincipalTest {

    @AfterEach
    void clearContext() {
        SecurityContextHolder.clearContext();
    }

    private static void authenticate(String user) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(user,
                "secret", AuthorityUtils.createAuthorityList("ROLE_OWNER_ADMIN")));
    }

    @Test
    void theRequestsPrincipalWins() {
        authenticate("from-context");
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.setUserPrincipal(() -> "from-request");
        assertThat(new ServletCurrentRequest(request).principal()).isEqualTo("from-request");
    }

    @Test
    void aRequestWithoutPrincipalReadsSpringSecuritysAuthentication() {
        authenticate("ben");
        assertThat(new ServletCurrentRequest(new MockHttpServletRequest()).principal()).isEqualTo("ben");
    }

    @Test
    void anAnonymousAuthenticationIsNoPrincipal() {
        SecurityContextHolder.getContext().setAuthentication(new AnonymousAuthenticationToken("key", "anonymousUser",
                AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
        assertThat(new ServletCurrentRequest(new MockHttpServletRequest()).principal()).isNull();
    }

    @Test
    void noAuthenticationAnywhereIsNoPrincipal() {
        assertThat(new ServletCurrentRequest(new MockHttpServletRequest()).principal()).isNull();
    }
}
