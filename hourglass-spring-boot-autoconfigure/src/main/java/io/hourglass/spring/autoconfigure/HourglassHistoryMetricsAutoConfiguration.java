package io.hourglass.spring.autoconfigure;

import io.hourglass.history.jdbc.HistoryArchiver;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The job history's meter when the application has a {@link HistoryArchiver} bean (module
 * {@code hourglass-history-jdbc}: {@link HourglassHistoryAutoConfiguration}'s or its own) and Micrometer:
 * {@value #DROPPED_EVENTS} (Prometheus {@code hourglass_history_dropped_events_total}), the stream entries (one script
 * call's completion events each, so at least that many events) a shard's stream cap dropped before any archiver of the
 * group read them, as {@link HistoryArchiver#droppedEvents()} counts them. Each such gap is also logged at WARN by the
 * archiver. The conditions name the classes as strings, and only the nested configuration mentions the archiver's type,
 * so that an application without {@code hourglass-history-jdbc} never loads it.
 */
@AutoConfiguration(
        after = {HourglassMetricsAutoConfiguration.class, HourglassHistoryAutoConfiguration.class},
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration"
        })
@ConditionalOnClass(name = {"io.micrometer.core.instrument.MeterRegistry", "io.hourglass.history.jdbc.HistoryArchiver"})
public class HourglassHistoryMetricsAutoConfiguration {
    /** The meter's name: a counter of events, no tags. */
    public static final String DROPPED_EVENTS = "hourglass.history.dropped";

    /** The meter of the application's archiver. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(type = "io.hourglass.history.jdbc.HistoryArchiver")
    static class DroppedEvents {
        /**
         * @param archiver the application's archiver
         * @return the binder of the dropped-events counter, bound to every registry by Spring Boot
         */
        @Bean
        MeterBinder hourglassHistoryDroppedEvents(HistoryArchiver archiver) {
            return registry -> FunctionCounter.builder(DROPPED_EVENTS, archiver, HistoryArchiver::droppedEvents)
                    .description(
                            "completion-event stream entries (one script call's events each) a stream's cap dropped before an"
                                    + " archiver read them")
                    .baseUnit("events")
                    .register(registry);
        }
    }
}
