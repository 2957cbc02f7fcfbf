package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.testkit.spring.EmbeddedRedis;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The test kit's Spring entry point as an application's tests use it: {@code @SpringBootTest} with
 * {@link EmbeddedRedis}, the context cached across the test methods, Hourglass and Spring Data Redis on the test kit's
 * Redis.
 */
@SpringBootTest(
        classes = SpringTestKitSuite.OrderApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"hourglass.sweep-interval=200ms", "hourglass.namespace=spring-test-kit"})
@EmbeddedRedis
public abstract class SpringTestKitSuite extends SuiteSupport {
    @Autowired
    private HourglassTemplate template;

    @Autowired
    private OrderTimeouts listener;

    @Autowired
    private HourglassRedisConnection connection;

    @Autowired
    private Environment environment;

    @Test
    void hourglassAndSpringDataRedisConnectToTheTestKitsRedis() {
        assertThat(connection.source()).isEqualTo("hourglass.redis");
        assertThat(connection.redisUri().getPort())
                .isEqualTo(environment.getProperty("spring.data.redis.port", Integer.class));
        assertThat(template.hourglass().topics()).isNotNull();
    }

    @Test
    void aListenerReceivesWhatTheTemplateSchedules() throws Exception {
        template.schedule("order-timeout", "order-7", new OrderTimeout(7, "unpaid"), Duration.ofMillis(100));
        assertThat(listener.closed.poll(10, TimeUnit.SECONDS)).isEqualTo("order-7:7");
    }

    /** The application under test. */
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

    /** @return the instance under test, for subclasses' own checks */
    protected Hourglass hourglass() {
        return template.hourglass();
    }
}
