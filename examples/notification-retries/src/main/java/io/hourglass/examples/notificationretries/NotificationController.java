package io.hourglass.examples.notificationretries;

import io.hourglass.examples.notificationretries.Notifications.NotificationStatus;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /notifications {"to": "+4912345", "text": "…"}} sends a notification (202 with its id), {@code GET
 * /notifications/{id}} shows it while it is not sent (404 once it is), {@code GET /notifications/dead} lists the ones
 * that ran out of attempts.
 */
@RestController
@RequestMapping("/notifications")
public class NotificationController {
    private final Notifications notifications;

    /** @param notifications the notifications */
    public NotificationController(Notifications notifications) {
        this.notifications = notifications;
    }

    /**
     * @param notification what to send, and to whom
     * @return 202 with {@code {"id": …}}
     */
    @PostMapping
    public ResponseEntity<Map<String, String>> send(@RequestBody Notification notification) {
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(Map.of("id", notifications.send(notification)));
    }

    /**
     * @param id the notification
     * @return 200 with its job's state, attempts and last error; 404 when it is sent or unknown
     */
    @GetMapping("/{id}")
    public ResponseEntity<NotificationStatus> status(@PathVariable String id) {
        return ResponseEntity.of(notifications.status(id));
    }

    /** @return the first 100 dead letters */
    @GetMapping("/dead")
    public List<NotificationStatus> deadLetters() {
        return notifications.deadLetters(100);
    }
}
