package io.hourglass.spring.autoconfigure;

import io.hourglass.Backoff;
import io.hourglass.CallbackOptions;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.JobEvents;
import io.hourglass.RedisUnavailableException;
import io.hourglass.WorkerOptions;
import io.hourglass.spring.DeferredHourglass;
import io.hourglass.spring.HourglassBuilderCustomizer;
import io.hourglass.spring.HourglassConnectionException;
import io.hourglass.spring.HourglassPayloadCodec;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.PayloadConverter;
import io.hourglass.spring.listener.HourglassCallbackDelivery;
import io.hourglass.spring.listener.HourglassListenerContainer;
import io.hourglass.spring.listener.HourglassListenerRegistrar;
import io.hourglass.spring.listener.HourglassScheduleInstaller;
import io.hourglass.spring.listener.HourglassScheduleRegistrar;
import io.hourglass.spring.listener.ListenerDefaults;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.logging.LogLevel;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configures Hourglass: an {@link Hourglass} bean built from the {@code hourglass.*} properties, the
 * {@link HourglassRedisConnection} and every {@link HourglassBuilderCustomizer}, observed by every {@link JobEvents}
 * bean; a {@link HourglassTemplate}; the {@link io.hourglass.spring.HourglassListener} methods' registrar and
 * container; JSON payloads through the application's Jackson mapper; callback delivery when
 * {@code hourglass.callback-delivery.enabled=true}. Each bean backs off when the application declares its own.
 *
 * <p>Off with {@code hourglass.enabled=false}. The {@link Hourglass} bean connects to Redis when created, so an
 * unreachable Redis fails the start-up.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration",
            "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
            "org.springframework.boot.jackson2.autoconfigure.Jackson2AutoConfiguration"
        })
@ConditionalOnClass(Hourglass.class)
@ConditionalOnProperty(prefix = "hourglass", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(HourglassProperties.class)
@Import({
    HourglassJsonConfiguration.ApplicationJackson3.class,
    HourglassJsonConfiguration.ApplicationJackson2.class,
    HourglassJsonConfiguration.DefaultJackson3.class,
    HourglassJsonConfiguration.DefaultJackson2.class
})
public class HourglassAutoConfiguration {
    private static final Logger log = LoggerFactory.getLogger(HourglassAutoConfiguration.class);
    /** Spring Boot's default {@code spring.lifecycle.timeout-per-shutdown-phase}. */
    private static final Duration SPRING_SHUTDOWN_PHASE_TIMEOUT = Duration.ofSeconds(30);
    /** Time between connection tries with {@code hourglass.fail-fast=false}. */
    static final Duration CONNECT_RETRY_INTERVAL = Duration.ofSeconds(2);

    /**
     * @param properties the {@code hourglass.*} properties
     * @param environment where {@code spring.data.redis.*} is read when Spring Data Redis is absent
     * @return {@code hourglass.redis.uri} or {@code hourglass.redis.cluster-nodes}, else the
     *     {@code spring.data.redis.*} properties, else the default Redis; the starters declare one from Spring Data
     *     Redis's settings first when the application has Spring Data Redis
     * @throws IllegalStateException naming the setting Hourglass cannot honour
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassRedisConnection hourglassRedisConnection(HourglassProperties properties, Environment environment) {
        HourglassRedisConnection connection = HourglassRedisProperties.connection(properties.getRedis());
        if (!connection.source().equals(HourglassRedisProperties.DEFAULT_SOURCE)) {
            return connection;
        }
        return SpringDataRedisPropertiesBinding.bind(environment)
                .map(settings ->
                        settings.toHourglassConnection(properties.getRedis().getTlsTrustedCertificates() != null))
                .orElse(connection);
    }

    /**
     * @param properties the {@code hourglass.*} properties
     * @param connection where to connect
     * @param customizers applied in order after the properties
     * @param events every {@link JobEvents} bean, observing the instance (metrics, …)
     * @return the started instance, closed with the context
     * @throws HourglassConnectionException naming the address and its source, when Redis cannot be reached and
     *     {@code hourglass.fail-fast} is true (the default); with false, an instance that connects in the background
     *     ({@link DeferredHourglass})
     */
    @Bean
    @ConditionalOnMissingBean
    public Hourglass hourglass(
            HourglassProperties properties,
            HourglassRedisConnection connection,
            ObjectProvider<HourglassBuilderCustomizer> customizers,
            ObjectProvider<JobEvents> events) {
        HourglassBuilder builder = Hourglass.builder();
        connection.applyTo(builder);
        applyProperties(properties, builder);
        List<JobEvents> observers = events.orderedStream().toList();
        if (!observers.isEmpty()) {
            builder.events(observers.size() == 1 ? observers.get(0) : new CompositeJobEvents(observers));
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        Hourglass hourglass;
        try {
            hourglass = builder.build();
        } catch (RedisUnavailableException e) {
            if (properties.isFailFast()) {
                throw new HourglassConnectionException(connection, e);
            }
            log.warn(
                    "Hourglass cannot connect to Redis at {} ({}); hourglass.fail-fast=false: starting anyway, health"
                            + " DOWN, retrying every {} s; listeners start once Redis answers",
                    connection,
                    e.getMessage(),
                    CONNECT_RETRY_INTERVAL.toSeconds());
            return DeferredHourglass.create(
                    builder::build,
                    e,
                    properties.getNamespace(),
                    properties.getShards(),
                    connection.toString(),
                    CONNECT_RETRY_INTERVAL);
        }
        log.info(
                "Hourglass namespace '{}' ({} shards per topic) on {}",
                hourglass.namespace(),
                hourglass.shards(),
                connection);
        return hourglass;
    }

    static void applyProperties(HourglassProperties properties, HourglassBuilder builder) {
        builder.namespace(properties.getNamespace())
                .shards(properties.getShards())
                .defaultMaxAttempts(properties.getDefaultMaxAttempts())
                .defaultLease(properties.getDefaultLease())
                .defaultBackoff(Backoff.stepped(properties.getDefaultBackoff()))
                .sweepInterval(properties.getSweepInterval())
                .commandTimeout(properties.getCommandTimeout())
                .maxPayloadBytes(
                        Math.toIntExact(Math.min(properties.getMaxPayloadSize().toBytes(), Integer.MAX_VALUE)))
                .maxDelay(properties.getMaxDelay())
                .idempotencyWindow(properties.getIdempotencyWindow())
                .pollingMode(properties.isPollingMode())
                .scheduleTicker(properties.isScheduleTicker())
                .callbackAllowList(properties.getCallbackDelivery().getAllowList());
        builder.completedRetention(properties.getCompletedRetention())
                .deadLetterLimits(properties.getDeadLetterMaxCount(), properties.getDeadLetterMaxAge());
        if (properties.getRedis().getTlsTrustedCertificates() != null) {
            builder.tlsTrustedCertificates(properties.getRedis().getTlsTrustedCertificates());
        }
        builder.historyEvents(
                properties.getHistory().getStreamLength(),
                Math.toIntExact(
                        Math.min(properties.getHistory().getPayloadLimit().toBytes(), Integer.MAX_VALUE)));
        if (properties.getReplication().getWaitForReplicas() > 0) {
            builder.waitForReplicas(
                    properties.getReplication().getWaitForReplicas(),
                    properties.getReplication().getWaitTimeout());
        }
    }

    /**
     * @param hourglass the instance
     * @param properties the {@code hourglass.topic-config.*} properties
     * @return stores each configured topic's flow control in Redis, at once or, with {@code hourglass.fail-fast=false},
     *     once Redis answers
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassTopicConfigInitializer hourglassTopicConfigInitializer(
            Hourglass hourglass, HourglassProperties properties) {
        return new HourglassTopicConfigInitializer(hourglass, properties.getTopicConfig());
    }

    /**
     * @param codec the payload codec, if any (JSON through the application's Jackson by default)
     * @return the conversion shared by the template and the listener methods
     */
    @Bean
    @ConditionalOnMissingBean
    public PayloadConverter hourglassPayloadConverter(ObjectProvider<HourglassPayloadCodec> codec) {
        return new PayloadConverter(codec.getIfAvailable());
    }

    /**
     * @param hourglass the instance
     * @param payloads the payload conversion
     * @param registrar the listener methods, whose {@code maxAttempts}, {@code backoff} and {@code lease} attributes
     *     are their topic's job defaults
     * @return the template
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassTemplate hourglassTemplate(
            Hourglass hourglass, PayloadConverter payloads, HourglassListenerRegistrar registrar) {
        return new HourglassTemplate(hourglass, payloads, registrar);
    }

    /** @return the post-processor that finds and validates {@code @HourglassListener} methods */
    @Bean
    public static HourglassListenerRegistrar hourglassListenerRegistrar() {
        return new HourglassListenerRegistrar();
    }

    /**
     * @return keeps beans with {@code @HourglassListener} methods eager under
     *     {@code spring.main.lazy-initialization=true}, so that their workers start
     */
    @Bean
    public static LazyInitializationExcludeFilter hourglassListenerBeansAreEager() {
        return (beanName, definition, beanType) -> HourglassListenerRegistrar.hasListenerMethods(beanType);
    }

    /**
     * @param hourglass the instance
     * @param registrar the listener methods found
     * @param payloads the payload conversion
     * @param properties the {@code hourglass.listener.*} defaults
     * @param environment where Spring Boot's {@code spring.threads.virtual.enabled} is read
     * @return the lifecycle that runs the listener methods
     * @throws IllegalStateException naming {@code hourglass.listener.virtual-threads} when it is true on a JVM without
     *     virtual threads (before Java 21)
     * @throws IllegalStateException naming {@code hourglass.listener.failure-log-level} when it is empty
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassListenerContainer hourglassListenerContainer(
            Hourglass hourglass,
            HourglassListenerRegistrar registrar,
            PayloadConverter payloads,
            HourglassProperties properties,
            Environment environment) {
        HourglassProperties.Listener listener = properties.getListener();
        Duration phaseTimeout = environment.getProperty(
                "spring.lifecycle.timeout-per-shutdown-phase", Duration.class, SPRING_SHUTDOWN_PHASE_TIMEOUT);
        if (listener.getShutdownGrace().compareTo(phaseTimeout) >= 0) {
            log.warn(
                    "hourglass.listener.shutdown-grace ({}) is not shorter than"
                            + " spring.lifecycle.timeout-per-shutdown-phase ({}): Spring may stop waiting for running"
                            + " listener methods before their grace ends; keep the grace a few seconds shorter",
                    listener.getShutdownGrace(),
                    phaseTimeout);
        }
        ListenerDefaults defaults = new ListenerDefaults(
                listener.isAutoStartup(),
                listener.getConcurrency(),
                listener.getMaxBatch(),
                listener.getHandlerTimeout(),
                listener.getShutdownGrace(),
                virtualThreads("hourglass.listener.virtual-threads", listener.getVirtualThreads(), environment),
                systemLevel("hourglass.listener.failure-log-level", listener.getFailureLogLevel()),
                listener.isLogStackTraces());
        return new HourglassListenerContainer(hourglass, registrar, payloads, defaults);
    }

    /** @return the post-processor that finds and validates {@code @HourglassSchedule} methods */
    @Bean
    public static HourglassScheduleRegistrar hourglassScheduleRegistrar() {
        return new HourglassScheduleRegistrar();
    }

    /**
     * @param hourglass the instance
     * @param registrar the {@code @HourglassSchedule} methods found
     * @return the lifecycle that puts their schedules when the application starts
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassScheduleInstaller hourglassScheduleInstaller(
            Hourglass hourglass, HourglassScheduleRegistrar registrar) {
        return new HourglassScheduleInstaller(hourglass, registrar);
    }

    /**
     * Maps Spring Boot's level names to the core's: FATAL, which {@link System.Logger.Level} lacks, is logged as ERROR.
     *
     * @param property the property, named in the error
     * @param level its value
     * @throws IllegalStateException naming the property when it is empty
     */
    static System.Logger.Level systemLevel(String property, LogLevel level) {
        if (level == null) {
            throw new IllegalStateException(property + ": must not be empty; use OFF for no failure log lines");
        }
        return switch (level) {
            case TRACE -> System.Logger.Level.TRACE;
            case DEBUG -> System.Logger.Level.DEBUG;
            case INFO -> System.Logger.Level.INFO;
            case WARN -> System.Logger.Level.WARNING;
            case ERROR, FATAL -> System.Logger.Level.ERROR;
            case OFF -> System.Logger.Level.OFF;
        };
    }

    /**
     * Asked for explicitly, virtual threads must exist; otherwise Hourglass follows Spring Boot, which uses them for
     * its own executors where {@code spring.threads.virtual.enabled} is true and the JVM has them.
     *
     * @param property the property that asks, named in the error
     * @param asked its value, or null when not set
     */
    private static boolean virtualThreads(String property, Boolean asked, Environment environment) {
        if (asked == null) {
            return environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)
                    && WorkerOptions.virtualThreadsAvailable();
        }
        if (asked && !WorkerOptions.virtualThreadsAvailable()) {
            throw new IllegalStateException(property + ": this JVM (Java "
                    + Runtime.version().feature() + ") has no virtual threads; they need Java 21 or later");
        }
        return asked;
    }

    /**
     * @param hourglass the instance
     * @param properties the {@code hourglass.callback-delivery.*} properties
     * @param environment where Spring Boot's {@code spring.threads.virtual.enabled} is read
     * @return the lifecycle that POSTs callback jobs
     * @throws IllegalStateException naming {@code hourglass.callback-delivery.virtual-threads} when it is true on a JVM
     *     without virtual threads (before Java 21)
     * @throws IllegalStateException naming {@code hourglass.callback-delivery.failure-log-level} when it is empty
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "hourglass.callback-delivery", name = "enabled", havingValue = "true")
    public HourglassCallbackDelivery hourglassCallbackDelivery(
            Hourglass hourglass, HourglassProperties properties, Environment environment) {
        HourglassProperties.CallbackDelivery callbacks = properties.getCallbackDelivery();
        return new HourglassCallbackDelivery(
                hourglass,
                CallbackOptions.builder()
                        .concurrency(callbacks.getConcurrency())
                        .timeout(callbacks.getTimeout())
                        .contentType(callbacks.getContentType())
                        .signingSecret(callbacks.getSigningSecret())
                        .nextSigningSecret(callbacks.getNextSigningSecret())
                        .virtualThreads(virtualThreads(
                                "hourglass.callback-delivery.virtual-threads",
                                callbacks.getVirtualThreads(),
                                environment))
                        .failureLogLevel(systemLevel(
                                "hourglass.callback-delivery.failure-log-level", callbacks.getFailureLogLevel()))
                        .logStackTraces(callbacks.isLogStackTraces())
                        .maxDeferrals(callbacks.getMaxDeferrals())
                        .maxDispatchDeadline(callbacks.getMaxDispatchDeadline())
                        .build());
    }
}
