package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.spring.autoconfigure.HourglassAutoConfiguration;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import io.hourglass.spring.boot3.HourglassHealthIndicator;
import io.hourglass.spring.listener.HourglassCallbackDelivery;
import io.hourglass.spring.metrics.HourglassMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthContributorRegistry;
import org.springframework.boot.actuate.health.Status;
import org.springframework.util.unit.DataSize;

/**
 * The server is built on hourglass-spring-boot-starter: its {@link Hourglass} bean, callback delivery, health and
 * metrics are the starter's, configured from the server's flags; and Actuator adds no HTTP endpoint.
 */
@ServerSettings({
    "--hourglass.insecure=true",
    "--hourglass.max-payload-bytes=4096",
    "--hourglass.max-delay-ms=60000",
    "--hourglass.callback-secret=" + StarterIntegrationTests.SECRET,
    "--hourglass.callback-allow=127.0.0.1, *.example.com"
})
class StarterIntegrationTests extends ServerTestSupport {
    static final String SECRET = "starter-secret-0123456789";

    @Test
    void theHourglassBeanAndCallbackDeliveryAreTheStartersConfiguredFromTheServerFlags() {
        String factory = context.getBeanFactory()
                .getBeanDefinition(beanNameOf(Hourglass.class))
                .getFactoryBeanName();
        assertThat(factory).isEqualTo(HourglassAutoConfiguration.class.getName());
        assertThat(context.getBean(Hourglass.class).namespace()).isEqualTo(NAMESPACE);

        HourglassProperties properties = context.getBean(HourglassProperties.class);
        assertThat(properties.getRedis().getUri()).isEqualTo(redisUri);
        assertThat(properties.getMaxPayloadSize()).isEqualTo(DataSize.ofBytes(4096));
        assertThat(properties.getMaxDelay()).isEqualTo(Duration.ofMinutes(1));
        assertThat(properties.getCallbackDelivery().getAllowList()).containsExactly("127.0.0.1", "*.example.com");

        HourglassCallbackDelivery delivery = context.getBean(HourglassCallbackDelivery.class);
        assertThat(delivery.isRunning()).isTrue();
        assertThat(delivery.options().signingSecret()).isEqualTo(SECRET);
    }

    @Test
    void healthIsTheStartersHourglassIndicator() {
        var contributor = context.getBean(HealthContributorRegistry.class).getContributor("hourglass");
        assertThat(contributor).isInstanceOf(HourglassHealthIndicator.class);
        var health = ((HourglassHealthIndicator) contributor).health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("namespace", NAMESPACE);

        var answer = api.get("/health");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(Api.JSON.convertValue(answer.body(), Map.class)).isEqualTo(Map.of("status", "UP", "redis", "UP"));
    }

    @Test
    void aDeliveredCallbackJobIsCountedByTheStartersMetrics() {
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        assertThat(context.getBeansOfType(HourglassMetrics.class)).hasSize(1);
        String t = topic();
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            var created = api.post(
                    "/v1/topics/" + t + "/jobs",
                    json("id", "counted", "delayMs", 100, "payload", 1, "callbackUrl", receiver.url("/hooks/counted")));
            assertThat(created.status()).isEqualTo(201);

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(receiver.callsOf("counted")).hasSize(1);
                assertThat(registry.get(HourglassMetrics.ACKED)
                                .tag(HourglassMetrics.TAG_TOPIC, t)
                                .counter()
                                .count())
                        .isEqualTo(1);
            });
        }
        assertThat(registry.get(HourglassMetrics.SCHEDULED)
                        .tag(HourglassMetrics.TAG_TOPIC, t)
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(HourglassMetrics.DELIVERED)
                        .tag(HourglassMetrics.TAG_TOPIC, t)
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(HourglassMetrics.LATENESS)
                        .tag(HourglassMetrics.TAG_TOPIC, t)
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void actuatorServesNoEndpointOverHttp() {
        for (String path : new String[] {"/actuator", "/actuator/health", "/actuator/metrics", "/actuator/info"}) {
            assertThat(api.get(path).status()).as(path).isEqualTo(404);
        }
    }

    private static String beanNameOf(Class<?> type) {
        String[] names = context.getBeanNamesForType(type);
        assertThat(names).hasSize(1);
        return names[0];
    }
}
