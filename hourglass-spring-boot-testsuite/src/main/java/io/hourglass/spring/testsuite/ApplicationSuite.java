package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Job;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.metrics.HourglassMetrics;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A whole Spring Boot application with every auto-configuration on the starter's test class path (Spring Data Redis,
 * Jackson, Actuator): the starter adds itself, connects where Spring Data Redis does, delivers a typed payload
 * scheduled through the template to a listener method, reports health and counts in Micrometer.
 */
@RedisTest
public abstract class ApplicationSuite extends SuiteSupport {

    @Test
    void anApplicationSchedulesThroughTheTemplateAndItsListenerReceives(
            RedisServerProcess redis, HourglassFactory factory) throws Exception {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(OrderApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.data.redis.host=" + redis.host(),
                        "spring.data.redis.port=" + redis.port(),
                        "hourglass.namespace=" + factory.namespace(),
                        "hourglass.sweep-interval=200ms",
                        "spring.main.banner-mode=off")
                .run()) {
            assertThat(app.getBean(HourglassRedisConnection.class).source()).isEqualTo("spring.data.redis");
            app.getBean(HourglassTemplate.class)
                    .schedule("order-timeout", "order-42", new OrderTimeout(42, "unpaid"), Duration.ofMillis(200));
            assertThat(app.getBean(OrderTimeouts.class).closed.poll(10, TimeUnit.SECONDS))
                    .isEqualTo("order-42:42");
            assertThat(line().health(app).status()).isEqualTo("UP");
            MeterRegistry registry = app.getBean(MeterRegistry.class);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(registry.get(HourglassMetrics.ACKED)
                            .tag("topic", "order-timeout")
                            .counter()
                            .count())
                    .isEqualTo(1));
        }
    }

    /** The application. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class OrderApplication {
        /** @return the listener */
        @Bean
        public OrderTimeouts orderTimeouts() {
            return new OrderTimeouts();
        }
    }

    /** Closes unpaid orders. */
    public static class OrderTimeouts {
        final BlockingQueue<String> closed = new LinkedBlockingQueue<>();

        @HourglassListener(topic = "order-timeout")
        void close(OrderTimeout timeout, Job job) {
            closed.add(job.id() + ":" + timeout.orderId());
        }
    }
}
