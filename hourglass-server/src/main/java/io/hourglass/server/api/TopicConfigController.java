package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.Inspector;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Operators' endpoints on a topic's flow control (right {@code admin}): its rate limit and concurrency cap. */
@RestController
@Tag(name = "topics", description = "Operators: topic overviews, history, pause and resume, dead letters")
@RequestMapping("/v1/topics/{topic}/config")
public class TopicConfigController {
    private final Inspector inspector;

    /** @param hourglass the instance to serve */
    public TopicConfigController(Hourglass hourglass) {
        this.inspector = hourglass.inspector();
    }

    /** @return the topic's flow control; all zero when none is set */
    @GetMapping
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "A topic's flow control: rate limit and concurrency cap (0: none)")
    @ApiResponse(responseCode = "200", description = "The configuration as stored in Redis")
    public TopicConfigView config(@PathVariable String topic) {
        return TopicConfigView.of(inspector.topicConfig(topic));
    }

    /** Stores the topic's flow control; 400 naming the field when a value is out of range, and nothing changes. */
    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Set a topic's flow control",
            description = "Stored in Redis and enforced inside every claim of every process: at most ratePerSecond"
                    + " deliveries per second (a token bucket of burst tokens) and at most maxConcurrency jobs ACTIVE"
                    + " at once, across workers, pull reservations and callbacks. Takes effect at once; all zero"
                    + " removes the limits. burst and maxConcurrency, when above 0, must be at least the shard count.")
    @ApiResponse(responseCode = "200", description = "Stored: the configuration, the default burst resolved")
    @ApiResponse(responseCode = "400", description = "A value is out of range; nothing was changed")
    public TopicConfigView configure(@PathVariable String topic, @RequestBody TopicConfigView body) {
        inspector.configureTopic(topic, body.toConfig());
        return TopicConfigView.of(inspector.topicConfig(topic));
    }
}
