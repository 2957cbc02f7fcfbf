package io.hourglass.spring.listener;

import io.hourglass.Schedule;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassSchedule;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds {@link HourglassSchedule} methods on the beans of the application context as they are initialized and turns
 * each into a {@link Schedule} at once, so that a bad attribute, or a schedule without an {@link HourglassListener} on
 * the same method, fails the creation of its bean with a message naming the bean and the method. The
 * {@link HourglassScheduleInstaller} puts them. Thread-safe.
 */
public class HourglassScheduleRegistrar implements BeanPostProcessor, BeanFactoryAware {
    private final List<Schedule> schedules = new CopyOnWriteArrayList<>();
    private final AnnotatedMethods<HourglassSchedule> annotatedMethods =
            new AnnotatedMethods<>(HourglassSchedule.class);
    private ConfigurableBeanFactory beanFactory;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = beanFactory instanceof ConfigurableBeanFactory c ? c : null;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        annotatedMethods
                .of(bean)
                .forEach((method, annotation) -> schedules.add(schedule(beanName, method, annotation)));
        return bean;
    }

    private Schedule schedule(String beanName, Method method, HourglassSchedule annotation) {
        String where = "bean '" + beanName + "', method "
                + method.getDeclaringClass().getSimpleName() + "." + method.getName();
        HourglassListener listener = AnnotatedElementUtils.findMergedAnnotation(method, HourglassListener.class);
        if (listener == null) {
            throw new IllegalStateException("Invalid @HourglassSchedule on " + where + ": the method must also be an"
                    + " @HourglassListener, whose topic the schedule's jobs go to");
        }
        try {
            return Schedule.builder(resolve(annotation.name()), resolve(listener.topic()), resolve(annotation.cron()))
                    .zone(resolve(annotation.zone()))
                    .payload(resolve(annotation.payload()))
                    .misfirePolicy(policy(resolve(annotation.misfirePolicy())))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("Invalid @HourglassSchedule on " + where + ": " + e.getMessage(), e);
        }
    }

    private static Schedule.MisfirePolicy policy(String text) {
        try {
            return Schedule.MisfirePolicy.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("misfirePolicy: must be FIRE_ONCE or SKIP, got '" + text + "'");
        }
    }

    private String resolve(String value) {
        return beanFactory == null ? value : beanFactory.resolveEmbeddedValue(value);
    }

    /** @return the schedules found so far, in the order their beans were initialized */
    List<Schedule> schedules() {
        return List.copyOf(schedules);
    }
}
