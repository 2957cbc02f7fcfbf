package io.hourglass.spring.listener;

import io.hourglass.JobRequest;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.TopicJobDefaults;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;

/**
 * Finds {@link HourglassListener} methods on the beans of the application context as they are initialized, and
 * validates them at once: a method with a wrong signature or attribute fails the creation of its bean, hence the
 * application's start-up, with a message naming the bean and the method. The {@link HourglassListenerContainer} runs
 * them. Thread-safe.
 *
 * <p>Runs after the ordered post-processors (auto-proxy creators among them), so it sees the bean as the context
 * exposes it and invokes listener methods through its proxy. Listener methods must be on beans created during start-up
 * (singletons; {@code spring.main.lazy-initialization} leaves them eager): one found later fails that bean's creation
 * rather than being silently ignored.
 *
 * <p>As {@link TopicJobDefaults}, it gives the {@code maxAttempts}, {@code backoff}, {@code lease} and {@code priority}
 * attributes of the first listener method of a topic that sets any of them.
 */
public class HourglassListenerRegistrar implements BeanPostProcessor, BeanFactoryAware, TopicJobDefaults {
    private final List<ListenerMethod> methods = new CopyOnWriteArrayList<>();
    private final AnnotatedMethods<HourglassListener> listeners = new AnnotatedMethods<>(HourglassListener.class);
    private ConfigurableBeanFactory beanFactory;
    private volatile boolean closed;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = beanFactory instanceof ConfigurableBeanFactory c ? c : null;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Map<Method, HourglassListener> annotated = listeners.of(bean);
        if (annotated.isEmpty()) {
            return bean;
        }
        if (closed) {
            throw new IllegalStateException("@HourglassListener methods of bean '" + beanName + "' were found after the"
                    + " application started (a lazy or prototype bean?); listener methods must be on beans created at"
                    + " start-up");
        }
        annotated.forEach((method, annotation) -> {
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            methods.add(
                    ListenerMethod.create(beanName, bean, method, invocable, annotation, this::resolvePlaceholders));
        });
        return bean;
    }

    /**
     * @param type a bean type; may be null
     * @return whether it declares or inherits an {@link HourglassListener} method
     */
    public static boolean hasListenerMethods(Class<?> type) {
        return !AnnotatedMethods.find(type, HourglassListener.class).isEmpty();
    }

    /**
     * Sets the {@code maxAttempts}, {@code backoff}, {@code lease} and {@code priority} attributes of the topic's first
     * listener method that sets any, if there is one.
     *
     * @param topic the request's topic; not null
     * @param request the request; not null
     */
    @Override
    public void applyTo(String topic, JobRequest.Builder request) {
        for (ListenerMethod method : methods) {
            if (method.topic().equals(topic) && method.hasJobDefaults()) {
                method.applyJobDefaults(request);
                return;
            }
        }
    }

    private String resolvePlaceholders(String value) {
        return beanFactory == null ? value : beanFactory.resolveEmbeddedValue(value);
    }

    /**
     * Ends registration (later listener methods fail their bean) and hands over what was found.
     *
     * @return the listener methods found, in the order their beans were initialized
     */
    List<ListenerMethod> close() {
        closed = true;
        return List.copyOf(methods);
    }
}
