package io.hourglass.spring.autoconfigure;

import io.hourglass.Hourglass;
import io.hourglass.TopicConfig;
import io.hourglass.spring.DeferredHourglass;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores the {@code hourglass.topic-config.*} properties in Redis at start-up, as {@code Inspector.configureTopic}
 * does; a topic the properties do not name keeps what Redis holds (set over HTTP or the command line, say). The values
 * are checked when the bean is created, so a bad one fails the start-up with a message naming the field.
 */
public final class HourglassTopicConfigInitializer {
    private static final Logger log = LoggerFactory.getLogger(HourglassTopicConfigInitializer.class);

    /**
     * @param hourglass the instance, possibly not yet connected ({@link DeferredHourglass})
     * @param properties the configured topics' settings, by topic
     * @throws IllegalArgumentException naming the topic and the field when a value is out of range
     */
    public HourglassTopicConfigInitializer(
            Hourglass hourglass, Map<String, HourglassProperties.TopicConfig> properties) {
        Map<String, TopicConfig> configs = new LinkedHashMap<>();
        properties.forEach((topic, p) -> {
            try {
                configs.put(topic, p.toConfig());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("hourglass.topic-config." + topic + ": " + e.getMessage(), e);
            }
        });
        DeferredHourglass.whenConnected(
                hourglass,
                () -> configs.forEach((topic, config) -> {
                    try {
                        hourglass.inspector().configureTopic(topic, config);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                "hourglass.topic-config." + topic + ": " + e.getMessage(), e);
                    }
                    log.info("Topic {}: flow control {}", topic, config);
                }));
    }
}
