package io.hourglass.spring.listener;

import io.hourglass.Backoff;
import io.hourglass.Job;
import io.hourglass.JobHandler;
import io.hourglass.JobRequest;
import io.hourglass.NonRetryableException;
import io.hourglass.WorkerOptions;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.PayloadConverter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.ResolvableType;
import org.springframework.util.ReflectionUtils;

/**
 * One validated {@link HourglassListener} method: its bean, topic, the options its annotation sets, and where its
 * payload and {@link Job} parameters are. Immutable.
 */
final class ListenerMethod {
    private final String beanName;
    private final Object bean;
    private final Method invocable;
    private final String description;
    private final String topic;
    private final Integer concurrency;
    private final Integer maxBatch;
    private final Duration handlerTimeout;
    private final Duration shutdownGrace;
    private final Integer maxAttempts;
    private final Backoff backoff;
    private final Duration lease;
    private final Integer priority;
    private final int parameterCount;
    private final int payloadIndex;
    private final int jobIndex;
    private final Type payloadType;
    private final Type resultType;

    private ListenerMethod(
            String beanName,
            Object bean,
            Method invocable,
            String description,
            String topic,
            Integer concurrency,
            Integer maxBatch,
            Duration handlerTimeout,
            Duration shutdownGrace,
            Integer maxAttempts,
            Backoff backoff,
            Duration lease,
            Integer priority,
            int payloadIndex,
            int jobIndex,
            Type payloadType,
            Type resultType) {
        this.beanName = beanName;
        this.bean = bean;
        this.invocable = invocable;
        this.description = description;
        this.topic = topic;
        this.concurrency = concurrency;
        this.maxBatch = maxBatch;
        this.handlerTimeout = handlerTimeout;
        this.shutdownGrace = shutdownGrace;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
        this.lease = lease;
        this.priority = priority;
        this.parameterCount = invocable.getParameterCount();
        this.payloadIndex = payloadIndex;
        this.jobIndex = jobIndex;
        this.payloadType = payloadType;
        this.resultType = resultType;
    }

    /**
     * Validates a method and reads its annotation.
     *
     * @param beanName the bean's name
     * @param bean the bean as the context exposes it (possibly a proxy)
     * @param method the annotated method, on the bean's target class
     * @param invocable the same method, invocable on {@code bean}
     * @param annotation the merged annotation
     * @param placeholders resolves {@code ${…}} placeholders
     * @return the listener method
     * @throws IllegalStateException naming the bean and the method, when the signature or an attribute is wrong
     */
    static ListenerMethod create(
            String beanName,
            Object bean,
            Method method,
            Method invocable,
            HourglassListener annotation,
            UnaryOperator<String> placeholders) {
        String description = describe(beanName, method);
        Problems problems = new Problems(description);
        if (Modifier.isStatic(method.getModifiers())) {
            throw problems.of("it must not be static");
        }
        int payloadIndex = -1;
        int jobIndex = -1;
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            if (types[i] == Job.class) {
                if (jobIndex >= 0) {
                    throw problems.of("it takes more than one io.hourglass.Job parameter");
                }
                jobIndex = i;
            } else {
                if (payloadIndex >= 0) {
                    throw problems.of("it takes more than one payload parameter (" + types[payloadIndex].getSimpleName()
                            + " and " + types[i].getSimpleName()
                            + "); a listener method takes at most one payload and at most"
                            + " one io.hourglass.Job");
                }
                payloadIndex = i;
            }
        }
        Type payloadType = payloadIndex < 0
                ? null
                : ResolvableType.forMethodParameter(method, payloadIndex, bean.getClass())
                        .getType();
        Type resultType = method.getReturnType() == void.class || method.getReturnType() == Void.class
                ? null
                : ResolvableType.forMethodReturnType(method, bean.getClass()).getType();
        String topic = placeholders.apply(annotation.topic());
        if (topic == null || topic.isBlank()) {
            throw problems.of("its topic is not set; write @HourglassListener(topic = \"…\")");
        }
        try {
            JobRequest.builder(topic);
        } catch (IllegalArgumentException e) {
            throw problems.of(e.getMessage());
        }
        Integer concurrency = problems.integer("concurrency", placeholders.apply(annotation.concurrency()));
        Integer maxBatch = problems.integer("maxBatch", placeholders.apply(annotation.maxBatch()));
        Duration handlerTimeout = problems.duration("handlerTimeout", placeholders.apply(annotation.handlerTimeout()));
        Duration shutdownGrace = problems.duration("shutdownGrace", placeholders.apply(annotation.shutdownGrace()));
        Integer maxAttempts = problems.integer("maxAttempts", placeholders.apply(annotation.maxAttempts()));
        Backoff backoff = problems.backoff(placeholders.apply(annotation.backoff()));
        Duration lease = problems.duration("lease", placeholders.apply(annotation.lease()));
        Integer priority = problems.integer("priority", placeholders.apply(annotation.priority()));
        ListenerMethod listener = new ListenerMethod(
                beanName,
                bean,
                invocable,
                description,
                topic,
                concurrency,
                maxBatch,
                handlerTimeout,
                shutdownGrace,
                maxAttempts,
                backoff,
                lease,
                priority,
                payloadIndex,
                jobIndex,
                payloadType,
                resultType);
        listener.options(ListenerDefaults.DEFAULTS);
        listener.applyJobDefaults(JobRequest.builder(topic));
        ReflectionUtils.makeAccessible(invocable);
        return listener;
    }

    private static String describe(String beanName, Method method) {
        String parameters = Arrays.stream(method.getParameterTypes())
                .map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        return method.getDeclaringClass().getName() + "." + method.getName() + "(" + parameters + ") of bean '"
                + beanName + "'";
    }

    /** @return e.g. {@code com.example.Orders.close(Order, Job) of bean 'orders'} */
    String description() {
        return description;
    }

    /** @return the bean's name */
    String beanName() {
        return beanName;
    }

    /** @return the topic, placeholders resolved */
    String topic() {
        return topic;
    }

    /** @return the payload parameter's type, or null when the method takes none */
    Type payloadType() {
        return payloadType;
    }

    /** @return the method's return type, whose value is the job's result, or null when it returns {@code void} */
    Type resultType() {
        return resultType;
    }

    /**
     * @param defaults the values for attributes the annotation leaves empty
     * @return the worker options
     * @throws IllegalStateException naming this method, when a value is out of range
     */
    WorkerOptions options(ListenerDefaults defaults) {
        WorkerOptions.Builder options = WorkerOptions.builder();
        try {
            options.concurrency(concurrency != null ? concurrency : defaults.concurrency());
            options.maxBatch(maxBatch != null ? maxBatch : defaults.maxBatch());
            options.handlerTimeout(handlerTimeout != null ? handlerTimeout : defaults.handlerTimeout());
            options.shutdownGrace(shutdownGrace != null ? shutdownGrace : defaults.shutdownGrace());
            options.virtualThreads(defaults.virtualThreads());
            options.failureLogLevel(defaults.failureLogLevel());
            options.logStackTraces(defaults.logStackTraces());
        } catch (IllegalArgumentException e) {
            throw new Problems(description).of(e.getMessage());
        }
        return options.build();
    }

    /** @return whether the annotation sets {@code maxAttempts}, {@code backoff}, {@code lease} or {@code priority} */
    boolean hasJobDefaults() {
        return maxAttempts != null || backoff != null || lease != null || priority != null;
    }

    /**
     * Sets the annotation's {@code maxAttempts}, {@code backoff}, {@code lease} and {@code priority} on a request of
     * this topic.
     *
     * @param request the request; not null
     * @throws IllegalStateException naming this method and the attribute, when a value is out of range
     */
    void applyJobDefaults(JobRequest.Builder request) {
        Problems problems = new Problems(description);
        if (maxAttempts != null) {
            try {
                request.maxAttempts(maxAttempts);
            } catch (IllegalArgumentException e) {
                throw problems.of("maxAttempts: " + e.getMessage());
            }
        }
        if (backoff != null) {
            request.backoff(backoff);
        }
        if (lease != null) {
            try {
                request.lease(lease);
            } catch (IllegalArgumentException e) {
                throw problems.of("lease: " + e.getMessage());
            }
        }
        if (priority != null) {
            try {
                request.priority(priority);
            } catch (IllegalArgumentException e) {
                throw problems.of(e.getMessage());
            }
        }
    }

    /**
     * @param payloads converts the payload bytes to the parameter's type, and the return value to the result's bytes
     * @return a handler that invokes this method: returns when it returns, with its return value as the job's result
     *     ({@link PayloadConverter#toBytes}: {@code byte[]} as is, {@code String} as UTF-8, any other object through
     *     the codec; null or {@code void} for none), throws what it throws; throws {@link NonRetryableException} (the
     *     job goes to the dead letters at once) when the payload cannot be read as the parameter's type, and
     *     {@link IllegalStateException} naming this method when the codec cannot write the return value (the job is
     *     retried, as for a result over {@link io.hourglass.Hourglass#MAX_RESULT_BYTES}, which the worker refuses)
     */
    JobHandler handler(PayloadConverter payloads) {
        return JobHandler.returning(job -> {
            Object[] args = new Object[parameterCount];
            if (payloadIndex >= 0) {
                try {
                    args[payloadIndex] = payloads.fromBytes(job.payload(), payloadType);
                } catch (IllegalArgumentException e) {
                    // The same bytes fail the same way on every attempt: retrying only delays the dead letter.
                    throw new NonRetryableException(e.getMessage(), e);
                }
            }
            if (jobIndex >= 0) {
                args[jobIndex] = job;
            }
            Object value;
            try {
                value = invocable.invoke(bean, args);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof Exception exception) {
                    throw exception;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw e;
            }
            return value == null || resultType == null ? null : result(payloads, value);
        });
    }

    private byte[] result(PayloadConverter payloads, Object value) {
        try {
            return payloads.toBytes(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    "the return value of " + description + " cannot be written as the job's result: " + e.getMessage(),
                    e);
        }
    }

    /** Builds the start-up failures of one method. */
    private static final class Problems {
        private final String description;

        Problems(String description) {
            this.description = description;
        }

        IllegalStateException of(String problem) {
            return new IllegalStateException("Invalid @HourglassListener method " + description + ": " + problem);
        }

        Integer integer(String attribute, String value) {
            if (value == null || value.isBlank()) {
                return null;
            }
            try {
                return Integer.valueOf(value.trim());
            } catch (NumberFormatException e) {
                throw of(attribute + ": '" + value + "' is not a whole number");
            }
        }

        /**
         * Reads the core's {@link Backoff#spec()} syntax with Spring Boot durations allowed for its numbers of ms, or a
         * bare list of durations as a stepped backoff.
         */
        Backoff backoff(String value) {
            if (value == null || value.isBlank()) {
                return null;
            }
            String spec = value.trim();
            int colon = spec.indexOf(':');
            String kind = colon < 0 ? "steps" : spec.substring(0, colon);
            String[] parts = spec.substring(colon + 1).split(",", -1);
            try {
                for (int i = 0; i < parts.length; i++) {
                    String part = parts[i].trim();
                    boolean jitter = kind.equals("exp") && i == 2;
                    parts[i] = jitter || part.matches("\\d+")
                            ? part
                            : Long.toString(DurationStyle.detectAndParse(part).toMillis());
                }
                return Backoff.parse(kind + ":" + String.join(",", parts));
            } catch (IllegalArgumentException e) {
                throw of("backoff: '" + value + "' is not a backoff (e.g. fixed:10s, steps:1s,30s,5m, exp:1s,10m,0.2"
                        + " or 15s,3m)");
            }
        }

        Duration duration(String attribute, String value) {
            if (value == null || value.isBlank()) {
                return null;
            }
            try {
                return DurationStyle.detectAndParse(value.trim());
            } catch (IllegalArgumentException e) {
                throw of(attribute + ": '" + value + "' is not a duration (e.g. 30s, 500ms, PT1M)");
            }
        }
    }
}
