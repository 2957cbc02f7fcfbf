package io.hourglass.examples.meetingreminders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.spring.HourglassTemplate;
import io.hourglass.testkit.spring.EmbeddedRedis;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service over HTTP, against a real Redis and its embedded database, with time scaled down: the reminder goes out
 * 600 ms (not 15 minutes) before a meeting that starts a second or two from now. Every state change and reminder is
 * recorded with the time it happened, which must be no earlier than its due time and at most {@link #SOON} after it.
 * One application context (the test kit's {@link EmbeddedRedis} gives it a real Redis) serves every test; each test
 * works on meetings of its own.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"hourglass.sweep-interval=200ms", "meetings.reminder-lead=600ms"})
@EmbeddedRedis
class MeetingRemindersApplicationTests {
    private static final Duration LEAD = Duration.ofMillis(600);
    /** How late a change may come on a busy CI machine and still count as on time. */
    private static final Duration SOON = Duration.ofSeconds(1);

    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

    private final HttpClient http = HttpClient.newHttpClient();
    private final Service service = new Service();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private MeetingRepository repository;

    @Autowired
    private HourglassTemplate template;

    @Autowired
    private Meetings meetings;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aMeetingIsRemindedStartedAndFinishedOnTime() {
        Instant startsAt = now().plusMillis(1500);
        Instant endsAt = startsAt.plusMillis(1000);
        String id = service.create("Sprint review", startsAt, endsAt);
        assertThat(service.meeting(id).status()).isEqualTo(Meeting.Status.SCHEDULED);

        await().atMost(Duration.ofSeconds(5)).until(() -> service.reminders(id).size() == 1);
        Reminder reminder = service.reminders(id).get(0);
        assertThat(reminder.startsAt()).isEqualTo(startsAt);
        assertOnTime(reminder.sentAt(), startsAt.minus(LEAD));

        await().atMost(Duration.ofSeconds(5)).until(() -> service.meeting(id).status() == Meeting.Status.IN_PROGRESS);
        assertOnTime(service.meeting(id).startedAt(), startsAt);

        await().atMost(Duration.ofSeconds(5)).until(() -> service.meeting(id).status() == Meeting.Status.FINISHED);
        Meeting finished = service.meeting(id);
        assertOnTime(finished.startedAt(), startsAt);
        assertOnTime(finished.finishedAt(), endsAt);
        assertThat(service.reminders(id)).hasSize(1);
        assertThat(service.get("/meetings/" + id).body()).contains("\"status\":\"FINISHED\"");
    }

    @Test
    void aMovedMeetingChangesAtItsNewTimesAndNotAtItsOldOnes() {
        Instant oldStart = now().plusMillis(2000);
        Instant oldEnd = oldStart.plusMillis(500);
        String id = service.create("Design review", oldStart, oldEnd);
        Instant newStart = oldStart.plusMillis(2000);
        Instant newEnd = newStart.plusMillis(500);
        HttpResponse<String> moved = service.send(HttpRequest.newBuilder(service.uri("/meetings/" + id + "/time"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(times(newStart, newEnd))));
        assertThat(moved.statusCode()).isEqualTo(200);
        assertThat(service.hourglass().get(Meetings.START, id).orElseThrow().dueAt())
                .isEqualTo(newStart);

        waitUntil(oldEnd.plusMillis(500));
        Meeting untouched = service.meeting(id);
        assertThat(untouched.status()).isEqualTo(Meeting.Status.SCHEDULED);
        assertThat(untouched.startedAt()).isNull();
        assertThat(service.reminders(id)).isEmpty();

        await().atMost(Duration.ofSeconds(5)).until(() -> service.meeting(id).status() == Meeting.Status.FINISHED);
        Meeting finished = service.meeting(id);
        assertOnTime(finished.startedAt(), newStart);
        assertOnTime(finished.finishedAt(), newEnd);
        List<Reminder> reminders = service.reminders(id);
        assertThat(reminders).extracting(Reminder::startsAt).containsExactly(newStart);
        assertOnTime(reminders.get(0).sentAt(), newStart.minus(LEAD));
    }

    @Test
    void aCancelledMeetingGetsNoStateChangesNorReminders() {
        Instant startsAt = now().plusMillis(2500);
        Instant endsAt = startsAt.plusMillis(500);
        String id = service.create("Cancelled sync", startsAt, endsAt);
        HttpResponse<String> cancelled = service.send(
                HttpRequest.newBuilder(service.uri("/meetings/" + id)).DELETE());
        assertThat(cancelled.statusCode()).isEqualTo(200);
        assertThat(cancelled.body()).contains("\"status\":\"CANCELLED\"");
        for (String topic : List.of(Meetings.START, Meetings.END, Meetings.REMIND)) {
            assertThat(service.hourglass().get(topic, id)).as(topic).isEmpty();
        }

        waitUntil(endsAt.plusMillis(700));
        Meeting meeting = service.meeting(id);
        assertThat(meeting.status()).isEqualTo(Meeting.Status.CANCELLED);
        assertThat(meeting.startedAt()).isNull();
        assertThat(meeting.finishedAt()).isNull();
        assertThat(service.reminders(id)).isEmpty();
    }

    @Test
    void aRepeatedDeliveryChangesNothingAndAStartedMeetingCanNoLongerBeMovedOrCancelled() {
        Instant startsAt = now().plusMillis(1000);
        String id = service.create("Stand-up", startsAt, startsAt.plusSeconds(30));
        await().atMost(Duration.ofSeconds(5)).until(() -> service.meeting(id).status() == Meeting.Status.IN_PROGRESS);
        assertThat(service.reminders(id)).hasSize(1);
        Meeting started = service.meeting(id);

        meetings.remind(id);
        meetings.start(id);
        assertThat(service.meeting(id)).isEqualTo(started);
        assertThat(service.reminders(id)).hasSize(1);

        HttpResponse<String> move = service.send(HttpRequest.newBuilder(service.uri("/meetings/" + id + "/time"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(times(startsAt.plusSeconds(60), startsAt.plusSeconds(90)))));
        assertThat(move.statusCode()).isEqualTo(409);
        assertThat(service.send(HttpRequest.newBuilder(service.uri("/meetings/" + id))
                                .DELETE())
                        .statusCode())
                .isEqualTo(409);
        assertThat(service.meeting(id)).isEqualTo(started);
    }

    @Test
    void aMeetingThatWouldEndBeforeItStartsIsRefused() {
        int meetingsBefore = jdbc.queryForObject("SELECT COUNT(*) FROM meeting", Integer.class);
        long jobsBefore = scheduledJobs();
        Instant startsAt = now().plusSeconds(60);
        HttpResponse<String> refused = service.send(HttpRequest.newBuilder(service.uri("/meetings"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"Backwards\","
                        + times(startsAt, startsAt.minusSeconds(1)).substring(1))));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("endsAt");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM meeting", Integer.class))
                .isEqualTo(meetingsBefore);
        assertThat(scheduledJobs())
                .as("jobs of the other tests may finish, none is added")
                .isLessThanOrEqualTo(jobsBefore);
    }

    /** @return the jobs of every topic, in any state */
    private long scheduledJobs() {
        return template.hourglass().topics().stream()
                .mapToLong(t -> t.scheduled() + t.ready() + t.active() + t.dead())
                .sum();
    }

    private static void assertOnTime(Instant happened, Instant due) {
        assertThat(happened).isNotNull().isAfterOrEqualTo(due).isBefore(due.plus(SOON));
    }

    private static void waitUntil(Instant instant) {
        Duration left = Duration.between(now(), instant);
        await().pollDelay(left.isNegative() ? Duration.ZERO : left).until(() -> true);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    private static String times(Instant startsAt, Instant endsAt) {
        return "{\"startsAt\":\"" + startsAt + "\",\"endsAt\":\"" + endsAt + "\"}";
    }

    /** The running service, over HTTP, and its database. */
    private final class Service {
        String create(String title, Instant startsAt, Instant endsAt) {
            HttpResponse<String> created = send(HttpRequest.newBuilder(uri("/meetings"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"" + title + "\","
                            + times(startsAt, endsAt).substring(1))));
            assertThat(created.statusCode()).isEqualTo(201);
            Matcher id = ID.matcher(created.body());
            assertThat(id.find()).isTrue();
            return id.group(1);
        }

        Meeting meeting(String id) {
            return repository.find(id).orElseThrow();
        }

        List<Reminder> reminders(String id) {
            return repository.reminders(id);
        }

        io.hourglass.Hourglass hourglass() {
            return template.hourglass();
        }

        HttpResponse<String> get(String path) {
            return send(HttpRequest.newBuilder(uri(path)).GET());
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port + path);
        }

        HttpResponse<String> send(HttpRequest.Builder request) {
            try {
                return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }
}
