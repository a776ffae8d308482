package io.guard.spring.web;

import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.method.ControllerAdviceBean;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Whether the application answers one of Guard's exceptions itself: an {@code @ExceptionHandler} in the handling
 * controller or in an applicable {@code @ControllerAdvice} mapped to Guard's exception type or a subtype of it.
 * Such a handler is more specific than Guard's default answer and wins; a catch-all ({@code Exception},
 * {@code RuntimeException}) is less specific and does not.
 */
final class ApplicationExceptionHandlers {

    private final Supplier<List<ControllerAdviceBean>> advice;
    private final Map<Class<?>, ExceptionHandlerMethodResolver> resolvers = new ConcurrentHashMap<>();

    ApplicationExceptionHandlers(ApplicationContext context) {
        this.advice = SingletonSupplier.of(() -> context == null ? List.of()
                : new ArrayList<>(ControllerAdviceBean.findAnnotatedBeans(context)));
    }

    /**
     * @param handlerType the controller class that handled the request; null outside a controller
     * @param error       the refusal
     * @param guardType   the Guard exception type Guard answers {@code error} as
     */
    boolean handles(Class<?> handlerType, Throwable error, Class<? extends Throwable> guardType) {
        if (handlerType != null && maps(handlerType, error, guardType)) {
            return true;
        }
        for (ControllerAdviceBean bean : advice.get()) {
            if ((handlerType == null || bean.isApplicableToBeanType(handlerType))
                    && maps(bean.getBeanType(), error, guardType)) {
                return true;
            }
        }
        return false;
    }

    private boolean maps(Class<?> type, Throwable error, Class<? extends Throwable> guardType) {
        if (type == null) {
            return false;
        }
        Method method = resolvers.computeIfAbsent(type, ExceptionHandlerMethodResolver::new)
                .resolveMethodByThrowable(error);
        return method != null && mappedTypes(method).stream()
                .anyMatch(mapped -> guardType.isAssignableFrom(mapped) && mapped.isInstance(error));
    }

    @SuppressWarnings("unchecked")
    static List<Class<? extends Throwable>> mappedTypes(Method method) {
        ExceptionHandler annotation = AnnotatedElementUtils.findMergedAnnotation(method, ExceptionHandler.class);
        if (annotation != null && annotation.value().length > 0) {
            return Arrays.asList(annotation.value());
        }
        List<Class<? extends Throwable>> types = new ArrayList<>();
        for (Class<?> parameter : method.getParameterTypes()) {
            if (Throwable.class.isAssignableFrom(parameter)) {
                types.add((Class<? extends Throwable>) parameter);
            }
        }
        return types;
    }
}
