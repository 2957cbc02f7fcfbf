package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.Schedule;
import io.hourglass.ScheduleInfo;
import io.hourglass.Schedules;
import io.hourglass.server.auth.AccessDeniedException;
import io.hourglass.server.auth.ApiToken;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operators' endpoints on the namespace's recurring schedules (right {@code admin}, on the schedule's topic): each tick
 * of a schedule becomes one ordinary job of its topic. A token sees and changes only the schedules of topics it covers;
 * another topic's schedule answers 404 to a read and 403 to a change.
 */
@RestController
@Tag(name = "schedules")
@RequestMapping("/v1/schedules")
public class ScheduleController {
    private final Schedules schedules;
    private final RequestLimits limits;

    /**
     * @param hourglass the instance to serve
     * @param limits the server's limits
     */
    public ScheduleController(Hourglass hourglass, RequestLimits limits) {
        this.schedules = hourglass.schedules();
        this.limits = limits;
    }

    /**
     * @param caller the authenticated token
     * @return every schedule of a topic the caller's token covers, sorted by name, with its next fire times
     */
    @GetMapping
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "Every schedule of the topics the token covers, sorted by name, with its next fire times")
    @ApiResponse(responseCode = "200", description = "The schedules")
    public List<ScheduleView> list(@RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller) {
        return schedules.list().stream()
                .filter(info -> caller.covers(info.schedule().topic()))
                .map(ScheduleView::of)
                .toList();
    }

    /**
     * @param name the schedule's name
     * @param caller the authenticated token
     * @return the schedule, or 404 when there is none (or its topic is not the caller's)
     */
    @GetMapping("/{name}")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "One schedule, with its next fire times")
    @ApiResponse(responseCode = "200", description = "The schedule")
    @ApiResponse(responseCode = "404", description = "No such schedule")
    public ScheduleView get(@PathVariable String name, @RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller) {
        return ScheduleView.of(visible(name, caller));
    }

    /**
     * @param name the schedule's name
     * @param body the definition
     * @param caller the authenticated token
     * @return the stored schedule with its next fire times
     */
    @PutMapping(path = "/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Create or replace a schedule",
            description = "Each fire time of the cron expression (a tick) becomes one job of the topic, with the id"
                    + " schedule:<name>:<tick as epoch ms>, exactly once whatever the number of server processes."
                    + " A change takes effect at the next tick. The token must cover the new topic and, when the"
                    + " schedule exists, its current one.")
    @ApiResponse(responseCode = "200", description = "The stored schedule")
    @ApiResponse(responseCode = "400", description = "A field is not valid (the error names it)")
    @ApiResponse(responseCode = "403", description = "The token does not cover the topic")
    public ScheduleView put(
            @PathVariable String name,
            @RequestBody ScheduleBody body,
            @RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller) {
        Schedule schedule = body.toSchedule(name, limits);
        checkCovers(caller, schedule.topic());
        schedules
                .get(name)
                .ifPresent(existing -> checkCovers(caller, existing.schedule().topic()));
        return ScheduleView.of(schedules.put(schedule));
    }

    /**
     * @param name the schedule's name
     * @param caller the authenticated token
     * @return 204, or 404 when there is no such schedule (or its topic is not the caller's)
     */
    @DeleteMapping("/{name}")
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Delete a schedule",
            description = "No tick after this creates a job; jobs already created are left as they are.")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "404", description = "No such schedule")
    public ResponseEntity<Void> delete(
            @PathVariable String name, @RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller) {
        visible(name, caller);
        if (!schedules.delete(name)) {
            throw notFound(name);
        }
        return ResponseEntity.noContent().build();
    }

    private ScheduleInfo visible(String name, ApiToken caller) {
        return schedules
                .get(name)
                .filter(info -> caller.covers(info.schedule().topic()))
                .orElseThrow(() -> notFound(name));
    }

    private static void checkCovers(ApiToken caller, String topic) {
        if (!caller.covers(topic)) {
            throw new AccessDeniedException("Authorization: this token has no admin right on topic '" + topic + "'");
        }
    }

    private static NotFoundException notFound(String name) {
        return new NotFoundException("name: no schedule '" + name + "'");
    }
}
