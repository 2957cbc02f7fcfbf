package io.hourglass.examples.ordertimeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service over HTTP, against a real Redis: unpaid orders close, a late payment is refused, paid orders stay
 * paid, and the health endpoint includes Hourglass.
 */
@RedisTest
class OrderTimeoutApplicationTests {
    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anUnpaidOrderIsClosedWhenItsPaymentWindowEnds(RedisServerProcess redis, HourglassFactory factory) {
        run(redis, factory, "300ms", service -> {
            String id = service.place("12.50");
            assertThat(service.get(id)).contains("\"status\":\"UNPAID\"");
            await().atMost(Duration.ofSeconds(10)).until(() -> service.get(id).contains("\"status\":\"CLOSED\""));
            HttpResponse<String> late = service.pay(id);
            assertThat(late.statusCode()).isEqualTo(409);
            assertThat(late.body()).contains("\"status\":\"CLOSED\"");
            String health = service.send(HttpRequest.newBuilder(service.uri("/actuator/health"))
                            .GET())
                    .body();
            assertThat(health)
                    .contains("\"hourglass\"")
                    .contains("\"order-timeout\"")
                    .doesNotContain("DOWN");
        });
    }

    @Test
    void aPaidOrderStaysPaidAndItsTimeoutIsCancelled(RedisServerProcess redis, HourglassFactory factory) {
        run(redis, factory, "2s", service -> {
            String id = service.place("99.00");
            HttpResponse<String> paid = service.pay(id);
            assertThat(paid.statusCode()).isEqualTo(200);
            assertThat(service.app.getBean(HourglassTemplate.class).hourglass().get(Orders.TIMEOUTS, id))
                    .isEmpty();
            await().pollDelay(Duration.ofMillis(2500))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> service.get(id).contains("\"status\":\"PAID\""));
        });
    }

    private void run(RedisServerProcess redis, HourglassFactory factory, String paymentWindow, Consumer<Service> test) {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(OrderTimeoutApplication.class)
                .run(
                        "--server.port=0",
                        "--spring.data.redis.host=" + redis.host(),
                        "--spring.data.redis.port=" + redis.port(),
                        "--hourglass.namespace=" + factory.namespace(),
                        "--hourglass.sweep-interval=200ms",
                        "--orders.payment-window=" + paymentWindow,
                        "--spring.main.banner-mode=off")) {
            test.accept(new Service(app));
        }
    }

    /** The running service, over HTTP. */
    private final class Service {
        final ConfigurableApplicationContext app;
        final int port;

        Service(ConfigurableApplicationContext app) {
            this.app = app;
            this.port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        }

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
