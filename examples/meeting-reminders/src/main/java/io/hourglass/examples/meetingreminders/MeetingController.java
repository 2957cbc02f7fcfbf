package io.hourglass.examples.meetingreminders;

import java.time.Instant;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /meetings {"title", "startsAt", "endsAt"}} creates a meeting (201), {@code PUT /meetings/{id}/time
 * {"startsAt", "endsAt"}} moves it (409 once it has started), {@code DELETE /meetings/{id}} cancels it (409 once it has
 * started), {@code GET /meetings/{id}} shows it. Times are ISO-8601 instants.
 */
@RestController
@RequestMapping("/meetings")
public class MeetingController {
    private final Meetings meetings;

    /** @param meetings the meetings */
    public MeetingController(Meetings meetings) {
        this.meetings = meetings;
    }

    /**
     * @param request the title and times
     * @return 201 with the SCHEDULED meeting
     */
    @PostMapping
    public ResponseEntity<Meeting> create(@RequestBody CreateMeeting request) {
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(meetings.create(request.title(), request.startsAt(), request.endsAt()));
    }

    /**
     * @param id the meeting
     * @param request the new times
     * @return 200 with the moved meeting, 409 with it when it has started or was cancelled, 404
     */
    @PutMapping("/{id}/time")
    public ResponseEntity<Meeting> move(@PathVariable String id, @RequestBody MoveMeeting request) {
        return meetings.move(id, request.startsAt(), request.endsAt())
                .map(MeetingController::scheduledOrConflict)
                .orElse(ResponseEntity.notFound().build());
    }

    /**
     * @param id the meeting
     * @return 200 with the cancelled meeting, 409 with it when it has started, 404
     */
    @DeleteMapping("/{id}")
    public ResponseEntity<Meeting> cancel(@PathVariable String id) {
        return meetings.cancel(id)
                .map(meeting -> meeting.status() == Meeting.Status.CANCELLED
                        ? ResponseEntity.ok(meeting)
                        : ResponseEntity.status(HttpStatus.CONFLICT).body(meeting))
                .orElse(ResponseEntity.notFound().build());
    }

    /**
     * @param id the meeting
     * @return 200 with the meeting, or 404
     */
    @GetMapping("/{id}")
    public ResponseEntity<Meeting> get(@PathVariable String id) {
        return ResponseEntity.of(meetings.get(id));
    }

    /**
     * @param bad the times of a meeting that would end before it starts
     * @return 400 with {@code {"error": …}}
     */
    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException bad) {
        return ResponseEntity.badRequest().body(Map.of("error", bad.getMessage()));
    }

    private static ResponseEntity<Meeting> scheduledOrConflict(Meeting meeting) {
        return meeting.status() == Meeting.Status.SCHEDULED
                ? ResponseEntity.ok(meeting)
                : ResponseEntity.status(HttpStatus.CONFLICT).body(meeting);
    }

    /**
     * The body of {@code POST /meetings}.
     *
     * @param title what it is about
     * @param startsAt when it starts
     * @param endsAt when it ends
     */
    public record CreateMeeting(String title, Instant startsAt, Instant endsAt) {}

    /**
     * The body of {@code PUT /meetings/{id}/time}.
     *
     * @param startsAt the new start
     * @param endsAt the new end
     */
    public record MoveMeeting(Instant startsAt, Instant endsAt) {}
}
