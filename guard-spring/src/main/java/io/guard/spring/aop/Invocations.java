package io.guard.spring.aop;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.support.AopUtils;

/** What the aspects need to know about an AOP invocation. */
final class Invocations {

    private Invocations() {
    }

    static Class<?> targetClass(MethodInvocation invocation) {
        return invocation.getThis() != null ? AopUtils.getTargetClass(invocation.getThis()) : null;
    }

    /**
     * The rest of the chain as something that may run once per subscription: each run proceeds on a fresh clone,
     * because an invocation that has proceeded once would skip the inner interceptors the second time.
     */
    static Proceed repeatable(MethodInvocation invocation) {
        if (invocation instanceof ProxyMethodInvocation proxyInvocation) {
            return () -> proxyInvocation.invocableClone().proceed();
        }
        return invocation::proceed;
    }
}
