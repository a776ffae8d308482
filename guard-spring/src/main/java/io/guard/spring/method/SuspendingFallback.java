package io.guard.spring.method;

import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.Job;
import org.springframework.core.CoroutinesUtils;

import java.lang.reflect.Method;

/**
 * Runs a {@code suspend} fallback for a suspend function: as a {@code Mono} in the coroutine context of the call it
 * answers (its MDC, trace and security elements), the way Spring runs the function's own body; without the caller's
 * {@code Job}, since the {@code Mono} is cancelled through its subscription. Loaded only when such a fallback runs.
 */
final class SuspendingFallback {

    private SuspendingFallback() {
    }

    static Object invoke(Method fallback, Object target, Object[] args, Object continuation) {
        CoroutineContext context = ((Continuation<?>) continuation).getContext().minusKey(Job.Key);
        return CoroutinesUtils.invokeSuspendingFunction(context, fallback, target, args);
    }
}
