package io.hourglass.server.api;

import io.hourglass.TopicConfig;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A topic's flow control over HTTP: the body of {@code PUT /v1/topics/{topic}/config} and the answer of both that and
 * {@code GET}. In a body an absent field is 0 (no limit; for {@code burst}, the default).
 *
 * @param ratePerSecond deliveries per second, topic-wide; 0 for no rate limit
 * @param burst deliveries that may go at once after an idle time; 0 for the default (a second's worth)
 * @param maxConcurrency most jobs ACTIVE at once, topic-wide; 0 for no cap
 */
public record TopicConfigView(
        @Schema(description = "deliveries per second across every worker of the topic; 0: no rate limit")
        Double ratePerSecond,

        @Schema(
                description = "deliveries that may go at once after an idle time; 0: one second's worth, at least"
                        + " one per shard")
        Integer burst,

        @Schema(description = "most jobs ACTIVE at once across every worker of the topic; 0: no cap")
        Integer maxConcurrency) {

    static TopicConfigView of(TopicConfig config) {
        return new TopicConfigView(config.ratePerSecond(), config.burst(), config.maxConcurrency());
    }

    /** @throws IllegalArgumentException naming the field when a value is out of range */
    TopicConfig toConfig() {
        return new TopicConfig(
                ratePerSecond == null ? 0 : ratePerSecond,
                burst == null ? 0 : burst,
                maxConcurrency == null ? 0 : maxConcurrency);
    }
}
