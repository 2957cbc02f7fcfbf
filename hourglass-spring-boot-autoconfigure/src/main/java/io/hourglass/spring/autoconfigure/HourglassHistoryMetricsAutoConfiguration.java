package io.hourglass.spring.autoconfigure;

import io.hourglass.history.jdbc.HistoryArchiver;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The job history's meter when the application has a {@link HistoryArchiver} bean (module
 * {@code hourglass-history-jdbc}) and a {@link MeterRegistry}: {@value #DROPPED_EVENTS} (Prometheus
 * {@code hourglass_history_dropped_events_total}), the completion events a shard's stream cap dropped before any
 * archiver of the group read them, as {@link HistoryArchiver#droppedEvents()} counts them. Each such gap is also logged
 * at WARN by the archiver.
 */
@AutoConfiguration(
        after = HourglassMetricsAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration"
        })
@ConditionalOnClass({MeterRegistry.class, HistoryArchiver.class})
public class HourglassHistoryMetricsAutoConfiguration {
    /** The meter's name: a counter of events, no tags. */
    public static final String DROPPED_EVENTS = "hourglass.history.dropped";

    /**
     * @param archiver the application's archiver
     * @return the binder of the dropped-events counter, bound to every registry by Spring Boot
     */
    @Bean
    @ConditionalOnBean(HistoryArchiver.class)
    public MeterBinder hourglassHistoryDroppedEvents(HistoryArchiver archiver) {
        return registry -> FunctionCounter.builder(DROPPED_EVENTS, archiver, HistoryArchiver::droppedEvents)
                .description("completion events a stream's cap dropped before an archiver read them")
                .baseUnit("events")
                .register(registry);
    }
}
