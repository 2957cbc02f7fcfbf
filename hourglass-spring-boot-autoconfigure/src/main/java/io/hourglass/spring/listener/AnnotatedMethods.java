package io.hourglass.spring.listener;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * The methods of a bean's class that carry one annotation (merged, so meta-annotations count), found behind any proxy;
 * remembers the classes that have none, since most beans are such and post-processors see every bean. Thread-safe.
 *
 * @param <A> the annotation
 */
final class AnnotatedMethods<A extends Annotation> {
    private final Class<A> annotation;
    private final Set<Class<?>> classesWithout = ConcurrentHashMap.newKeySet();

    AnnotatedMethods(Class<A> annotation) {
        this.annotation = annotation;
    }

    /** @return the annotated methods of the bean's target class with their annotations; empty when none */
    Map<Method, A> of(Object bean) {
        Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
        if (classesWithout.contains(targetClass)) {
            return Map.of();
        }
        Map<Method, A> found = find(targetClass, annotation);
        if (found.isEmpty()) {
            classesWithout.add(targetClass);
        }
        return found;
    }

    /** @return the methods of {@code type} that carry the annotation; empty when none or {@code type} is null */
    static <A extends Annotation> Map<Method, A> find(Class<?> type, Class<A> annotation) {
        if (type == null || !AnnotationUtils.isCandidateClass(type, annotation)) {
            return Map.of();
        }
        return MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<A>)
                method -> AnnotatedElementUtils.findMergedAnnotation(method, annotation));
    }
}
