package io.hourglass.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;

/**
 * Makes a bean method the handler of a topic's due jobs: the auto-configuration finds such methods when the application
 * starts and runs one worker per method while the application context runs.
 *
 * <pre>{@code
 * @Component
 * class OrderTimeouts {
 *   @HourglassListener(topic = "order-timeout", concurrency = "8")
 *   void close(OrderTimeout timeout, Job job) {
 *     orders.closeIfUnpaid(timeout.orderId());
 *   }
 * }
 * }</pre>
 *
 * <p><b>Signature.</b> The method takes, in any order, at most one payload parameter and at most one
 * {@link io.hourglass.Job} parameter (the delivery: id, attempt, due time, lease extension), and nothing else. The
 * payload parameter may be {@code byte[]} (the bytes as stored), {@code String} (the bytes as UTF-8) or any type the
 * {@link HourglassPayloadCodec} reads (JSON through the application's Jackson mapper by default, generic types such as
 * {@code List<Order>} included). A method with another signature fails the application's start-up with a message naming
 * the bean and the method.
 *
 * <p><b>Outcome.</b> Returning normally acks the job. What it returns is the job's result, kept with the job while its
 * topic keeps completed jobs ({@code hourglass.completed-retention}) and dropped otherwise: {@code byte[]} as is,
 * {@code String} as UTF-8, any other object written by the {@link HourglassPayloadCodec} (JSON through the
 * application's Jackson mapper by default); {@code void} or null means no result. A result over
 * {@link io.hourglass.Hourglass#MAX_RESULT_BYTES} bytes, or one the codec cannot write, fails the delivery as a throw
 * does; a return type that no codec writes fails the start-up. Throwing (including a payload that cannot be read) fails
 * the delivery: the job is retried after its backoff, and goes to the dead letters with the exception as its last error
 * when its attempts are exhausted. Delivery is at least once, so the method must tolerate seeing a job again.
 *
 * <p><b>Lifecycle.</b> Workers start when the application context has been refreshed (unless
 * {@code hourglass.listener.auto-startup=false}) and stop gracefully with it: no new claims, running methods may finish
 * within the shutdown grace, jobs not started are handed back without charging an attempt.
 *
 * <p>Every attribute is a string so that it may hold a {@code ${…}} placeholder; an empty attribute takes the
 * {@code hourglass.listener.*} default. Methods of proxied beans are invoked through the proxy, so
 * {@code @Transactional} and the like apply.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface HourglassListener {

    /** @return alias of {@link #topic()} */
    @AliasFor("topic")
    String value() default "";

    /** @return the topic to consume: 1 to 100 characters of {@code [A-Za-z0-9._-]}; required */
    @AliasFor("value")
    String topic() default "";

    /**
     * @return how many jobs this method handles at once, 1 to 10000; empty for {@code hourglass.listener.concurrency}
     *     ({@link io.hourglass.WorkerOptions#DEFAULT_CONCURRENCY} unless set)
     */
    String concurrency() default "";

    /** @return most jobs fetched by one claim, 1 to 1000; empty for {@code hourglass.listener.max-batch} */
    String maxBatch() default "";

    /**
     * @return how long one invocation may run before its thread is interrupted and the delivery fails, as a duration
     *     ({@code 30s}, {@code 500ms}, {@code PT1M}); empty for {@code hourglass.listener.handler-timeout} (no limit
     *     unless set)
     */
    String handlerTimeout() default "";

    /**
     * @return how long running invocations may finish when the application stops, as a duration; empty for
     *     {@code hourglass.listener.shutdown-grace}
     */
    String shutdownGrace() default "";

    /**
     * @return deliveries before a job of this topic scheduled through {@link HourglassTemplate} is dead-lettered, 1 or
     *     more; empty for {@code hourglass.default-max-attempts}. Options given to
     *     {@link HourglassTemplate#schedule(String, Object, java.util.function.Consumer)} win.
     */
    String maxAttempts() default "";

    /**
     * @return retry backoff of jobs of this topic scheduled through {@link HourglassTemplate}: the core's
     *     {@link io.hourglass.Backoff#spec()} syntax, each number of milliseconds or a duration ({@code fixed:10s},
     *     {@code steps:1s,30s,5m}, {@code exp:1s,10m,0.2}), or a bare list of durations for stepped ({@code 15s,3m});
     *     empty for {@code hourglass.default-backoff}
     */
    String backoff() default "";

    /**
     * @return lease of each delivery of a job of this topic scheduled through {@link HourglassTemplate}, as a duration
     *     ({@code 2m}); empty for {@code hourglass.default-lease}
     */
    String lease() default "";

    /**
     * @return priority of a job of this topic scheduled through {@link HourglassTemplate} without one, -5 to 5, higher
     *     claimed first among the topic's due jobs ({@link io.hourglass.JobRequest.Builder#priority(int)}); empty for
     *     the default 0. Set by the producer with no Redis read, so only jobs scheduled through the template of an
     *     application that declares this listener get it; other producers set their own.
     */
    String priority() default "";
}
