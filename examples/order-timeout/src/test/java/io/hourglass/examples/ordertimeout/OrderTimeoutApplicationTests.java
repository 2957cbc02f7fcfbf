package io.hourglass.examples.ordertimeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.spring.HourglassTemplate;
import io.hourglass.testkit.spring.EmbeddedRedis;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The service over HTTP, against a real Redis (the test kit's {@link EmbeddedRedis}): unpaid orders close, a late
 * payment is refused, paid orders stay paid, and the health endpoint includes Hourglass.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"orders.payment-window=2s", "hourglass.sweep-interval=200ms"})
@EmbeddedRedis
class OrderTimeoutApplicationTests {
    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private final HttpClient http = HttpClient.newHttpClient();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private HourglassTemplate hourglass;

    private final Service service = new Service();

    @Test
    void anUnpaidOrderIsClosedWhenItsPaymentWindowEnds() {
        String id = service.place("12.50");
        assertThat(service.get(id)).contains("\"status\":\"UNPAID\"");
        await().atMost(Duration.ofSeconds(10)).until(() -> service.get(id).contains("\"status\":\"CLOSED\""));
        HttpResponse<String> late = service.pay(id);
        assertThat(late.statusCode()).isEqualTo(409);
        assertThat(late.body()).contains("\"status\":\"CLOSED\"");
        String health = service.send(
                        HttpRequest.newBuilder(service.uri("/actuator/health")).GET())
                .body();
        assertThat(health)
                .contains("\"hourglass\"")
                .contains("\"order-timeout\"")
                .doesNotContain("DOWN");
    }

    @Test
    void aPaidOrderStaysPaidAndItsTimeoutIsCancelled() {
        String id = service.place("99.00");
        HttpResponse<String> paid = service.pay(id);
        assertThat(paid.statusCode()).isEqualTo(200);
        assertThat(hourglass.hourglass().get(Orders.TIMEOUTS, id)).isEmpty();
        await().pollDelay(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).until(() -> service.get(id)
                .contains("\"status\":\"PAID\""));
    }

    /** The running service, over HTTP. */
    private final class Service {
        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port + path);
        }

        String place(String amount) {
            HttpResponse<String> placed = send(HttpRequest.newBuilder(uri("/orders"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":" + amount + "}")));
            assertThat(placed.statusCode()).isEqualTo(201);
            Matcher id = ID.matcher(placed.body());
            assertThat(id.find()).isTrue();
            return id.group(1);
        }

        HttpResponse<String> pay(String id) {
            return send(HttpRequest.newBuilder(uri("/orders/" + id + "/payment"))
                    .POST(HttpRequest.BodyPublishers.noBody()));
        }

        String get(String id) {
            return send(HttpRequest.newBuilder(uri("/orders/" + id)).GET()).body();
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
