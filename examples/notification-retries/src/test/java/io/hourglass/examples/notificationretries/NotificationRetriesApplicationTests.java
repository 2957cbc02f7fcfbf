package io.hourglass.examples.notificationretries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hourglass.Backoff;
import io.hourglass.examples.notificationretries.Notifications.NotificationStatus;
import io.hourglass.testkit.spring.EmbeddedRedis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service over HTTP, against a real Redis and a downstream gateway that fails on purpose. The retry steps are the
 * default stepped schedule's, 15000 times faster: 15s 3m 10m 30m 30m 1h 2h 6h 15h become 1ms 12ms 40ms 120ms 120ms
 * 240ms 480ms 1440ms 3600ms. One application context (the test kit's {@link EmbeddedRedis} gives it a real Redis) and
 * one gateway serve every test; each test uses recipients of its own.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "hourglass.sweep-interval=200ms")
@EmbeddedRedis
class NotificationRetriesApplicationTests {
    private static final long SPEED_UP = 15_000;
    private static final List<Duration> STEPS =
            Backoff.DEFAULT_STEPS.stream().map(step -> step.dividedBy(SPEED_UP)).toList();
    /** How much later than its step a retry may come on a busy CI machine. */
    private static final Duration SLACK = Duration.ofMillis(1500);

    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

    /** Started before the context, which reads its URL. */
    private static final FlakyGateway GATEWAY = FlakyGateway.started();

    private final HttpClient http = HttpClient.newHttpClient();
    private final FlakyGateway gateway = GATEWAY;
    private final Service service = new Service();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private Notifications notifications;

    @DynamicPropertySource
    static void gatewayAndRetrySteps(DynamicPropertyRegistry registry) {
        registry.add("notifications.gateway-url", GATEWAY::url);
        registry.add(
                "notifications.retry-steps",
                () -> STEPS.stream().map(step -> step.toMillis() + "ms").collect(Collectors.joining(",")));
    }

    @AfterAll
    static void stopGateway() {
        GATEWAY.stop();
    }

    @Test
    void aNotificationThatAlwaysFailsIsRetriedOnTheSteppedScheduleAndEndsInTheDeadLettersAfterTenAttempts() {
        gateway.failAlways("+49-always-down");
        String id = service.send("+49-always-down", "Your parcel has arrived");

        await().atMost(Duration.ofSeconds(30))
                .until(() -> service.get("/notifications/dead").contains(id));

        List<Attempt> attempts = gateway.attempts(id);
        assertThat(attempts).extracting(Attempt::number).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        for (int i = 0; i < STEPS.size(); i++) {
            Duration gap = Duration.ofNanos(
                    attempts.get(i + 1).nanos() - attempts.get(i).nanos());
            assertThat(gap)
                    .as("the gap after attempt %d", i + 1)
                    .isGreaterThanOrEqualTo(STEPS.get(i))
                    .isLessThan(STEPS.get(i).plus(SLACK));
        }
        NotificationStatus dead = service.notifications().deadLetters(10).stream()
                .filter(status -> status.id().equals(id))
                .findFirst()
                .orElseThrow();
        assertThat(dead.id()).isEqualTo(id);
        assertThat(dead.state()).isEqualTo("DEAD");
        assertThat(dead.attempt()).isEqualTo(10);
        assertThat(dead.maxAttempts()).isEqualTo(10);
        assertThat(dead.lastError()).isEqualTo(NotificationNotSentException.class.getName() + ": gateway answered 503");
        assertThat(service.get("/notifications/" + id))
                .contains("\"state\":\"DEAD\"")
                .contains("503");
    }

    @Test
    void aNotificationThatSucceedsOnItsFourthAttemptIsNotRetriedAgain() {
        gateway.failTimes("+49-flaky", 3);
        String id = service.send("+49-flaky", "Your code is 1234");

        await().atMost(Duration.ofSeconds(10)).until(() -> gateway.attempts(id).size() == 4);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> service.notifications().status(id).isEmpty());

        // the fifth attempt would come 120 ms after the fourth; wait well past it
        await().pollDelay(STEPS.get(4).plus(Duration.ofSeconds(1))).until(() -> true);
        assertThat(gateway.attempts(id)).extracting(Attempt::number).containsExactly(1, 2, 3, 4);
        assertThat(gateway.succeeded()).containsOnlyOnce(id);
        assertThat(service.notifications().deadLetters(10))
                .extracting(NotificationStatus::id)
                .doesNotContain(id);
        assertThat(service.status("/notifications/" + id)).isEqualTo(404);
    }

    @Test
    void aNotificationTheGatewayTakesAtOnceIsSentOnce() {
        String id = service.send("+49-happy", "Welcome");

        await().atMost(Duration.ofSeconds(5)).until(() -> gateway.succeeded().contains(id));
        await().pollDelay(STEPS.get(0).plus(Duration.ofMillis(500))).until(() -> true);
        assertThat(gateway.attempts(id)).extracting(Attempt::number).containsExactly(1);
        assertThat(gateway.bodies(id)).containsExactly("{\"to\":\"+49-happy\",\"text\":\"Welcome\"}");
    }

    /** One request the gateway received. */
    private record Attempt(String id, int number, long nanos, String body) {}

    /**
     * The downstream gateway: a real HTTP server that answers 503 to a recipient as many times as the test says, then
     * 200, and records every request with the time it arrived.
     */
    private static final class FlakyGateway {
        private final Map<String, Integer> failuresLeft = new ConcurrentHashMap<>();
        private final List<Attempt> attempts = new CopyOnWriteArrayList<>();
        private final List<String> succeeded = new CopyOnWriteArrayList<>();
        private HttpServer server;

        static FlakyGateway started() {
            FlakyGateway gateway = new FlakyGateway();
            try {
                gateway.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return gateway;
        }

        void start() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/send", exchange -> {
                long arrived = System.nanoTime();
                String body =
                        new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                String id = exchange.getRequestHeaders().getFirst("Idempotency-Key");
                int attempt = Integer.parseInt(exchange.getRequestHeaders().getFirst("Notification-Attempt"));
                attempts.add(new Attempt(id, attempt, arrived, body));
                Matcher to = Pattern.compile("\"to\":\"([^\"]+)\"").matcher(body);
                String recipient = to.find() ? to.group(1) : "";
                boolean fail = failuresLeft.getOrDefault(recipient, 0) > 0;
                if (fail) {
                    failuresLeft.computeIfPresent(
                            recipient, (key, left) -> left == Integer.MAX_VALUE ? left : left - 1);
                } else {
                    succeeded.add(id);
                }
                exchange.sendResponseHeaders(fail ? 503 : 200, -1);
                exchange.close();
            });
            server.start();
        }

        void stop() {
            server.stop(0);
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/send";
        }

        void failAlways(String recipient) {
            failuresLeft.put(recipient, Integer.MAX_VALUE);
        }

        void failTimes(String recipient, int times) {
            failuresLeft.put(recipient, times);
        }

        List<Attempt> attempts(String id) {
            List<Attempt> of = new ArrayList<>();
            for (Attempt attempt : attempts) {
                if (attempt.id().equals(id)) {
                    of.add(attempt);
                }
            }
            return of;
        }

        List<String> bodies(String id) {
            return attempts(id).stream().map(Attempt::body).toList();
        }

        List<String> succeeded() {
            return succeeded;
        }
    }

    /** The running service, over HTTP. */
    private final class Service {
        Notifications notifications() {
            return notifications;
        }

        String send(String to, String text) {
            HttpResponse<String> sent = send(HttpRequest.newBuilder(uri("/notifications"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"to\":\"" + to + "\",\"text\":\"" + text + "\"}")));
            assertThat(sent.statusCode()).isEqualTo(202);
            Matcher id = ID.matcher(sent.body());
            assertThat(id.find()).isTrue();
            return id.group(1);
        }

        String get(String path) {
            return send(HttpRequest.newBuilder(uri(path)).GET()).body();
        }

        int status(String path) {
            return send(HttpRequest.newBuilder(uri(path)).GET()).statusCode();
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
