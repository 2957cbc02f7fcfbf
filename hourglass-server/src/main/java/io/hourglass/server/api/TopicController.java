package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.TopicStats;
import io.hourglass.server.auth.ApiToken;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Operators' endpoints (right {@code admin}): per-topic counts and the dead letters. */
@RestController
@Tag(name = "topics", description = "Operators: per-topic counts and dead letters")
@RequestMapping("/v1/topics")
public class TopicController {
    private final Hourglass hourglass;

    /** @param hourglass the instance to serve */
    public TopicController(Hourglass hourglass) {
        this.hourglass = hourglass;
    }

    /**
     * @param caller the authenticated token
     * @return per-state counts of every topic of the namespace that the caller's token covers, sorted by name
     */
    @GetMapping
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "Counts per state of every topic the token covers, sorted by name")
    @ApiResponse(responseCode = "200", description = "The topics")
    public List<TopicStats> topics(@RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller) {
        return hourglass.topics().stream()
                .filter(stats -> caller.covers(stats.topic()))
                .toList();
    }

    /** @return per-state counts of one topic (all zero for a topic never used) */
    @GetMapping("/{topic}")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "Counts per state of one topic (all zero for a topic never used)")
    @ApiResponse(responseCode = "200", description = "The counts")
    public TopicStats topic(@PathVariable String topic) {
        return hourglass.stats(topic);
    }

    /** @return the topic's dead letters, oldest death first */
    @GetMapping("/{topic}/dead")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "List a topic's dead letters, oldest death first")
    @ApiResponse(responseCode = "200", description = "The dead jobs, with their last error")
    public List<JobView> deadLetters(
            @PathVariable String topic,
            @RequestParam(defaultValue = "0") int offset,
            @RequestParam(defaultValue = "100") int limit) {
        return hourglass.deadLetters(topic, offset, limit).stream()
                .map(JobView::of)
                .toList();
    }

    /** Puts a dead letter back to READY with its attempts reset: 204, 404 when none, 409 when not dead. */
    @PostMapping("/{topic}/dead/{id}/requeue")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "Put a dead letter back to READY with its attempts reset")
    @ApiResponse(responseCode = "204", description = "Requeued")
    @ApiResponse(responseCode = "404", description = "No such job")
    @ApiResponse(responseCode = "409", description = "The job is not dead")
    public ResponseEntity<Void> requeue(@PathVariable String topic, @PathVariable String id) {
        if (!hourglass.requeueDead(topic, id)) {
            throw NotFoundException.deadLetter(topic, id);
        }
        return ResponseEntity.noContent().build();
    }

    /** Deletes a dead letter: 204, or 404 when there is no such dead job. */
    @DeleteMapping("/{topic}/dead/{id}")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "Delete a dead letter")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "404", description = "No such dead job")
    public ResponseEntity<Void> deleteDead(@PathVariable String topic, @PathVariable String id) {
        if (!hourglass.deleteDead(topic, id)) {
            throw NotFoundException.deadLetter(topic, id);
        }
        return ResponseEntity.noContent().build();
    }
}
