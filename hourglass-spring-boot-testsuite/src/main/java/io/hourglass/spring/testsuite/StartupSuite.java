package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.JobEvents;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.autoconfigure.HourglassEmbeddedRedisAutoConfiguration;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * What a newcomer meets in the first hour: {@code spring.data.redis.*} honoured without Spring Data Redis, a failure
 * analysis when Redis cannot be reached, the development-only embedded Redis, shutdown within Kubernetes' default grace
 * period, and the start-up log lines for auto-startup off and for two listeners on one topic.
 */
@RedisTest
@ExtendWith(OutputCaptureExtension.class)
public abstract class StartupSuite extends SuiteSupport {

    @Test
    void springDataRedisPropertiesAreHonouredWithoutSpringDataRedis(
            RedisServerProcess redis, HourglassFactory factory) {
        runner().withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .withPropertyValues(
                        "spring.data.redis.host=" + redis.host(),
                        "spring.data.redis.port=" + redis.port(),
                        "spring.data.redis.database=3",
                        "spring.data.redis.client-name=orders",
                        "hourglass.namespace=" + factory.namespace())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    HourglassRedisConnection connection = context.getBean(HourglassRedisConnection.class);
                    assertThat(connection.source()).isEqualTo("spring.data.redis");
                    assertThat(connection.redisUri().getPort()).isEqualTo(redis.port());
                    assertThat(connection.redisUri().getDatabase()).isEqualTo(3);
                    assertThat(connection.redisUri().getClientName()).isEqualTo("orders");
                    assertThat(context.getBean(Hourglass.class).topics()).isNotNull();
                });
        runner().withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .withPropertyValues(
                        "spring.data.redis.url=rediss://app:s3cret@cache.example.com:6380/2",
                        "spring.data.redis.host=ignored.example.com")
                .withBean("standIn", Hourglass.class, factory::create)
                .run(context -> {
                    HourglassRedisConnection connection = context.getBean(HourglassRedisConnection.class);
                    assertThat(connection.redisUri().getHost()).isEqualTo("cache.example.com");
                    assertThat(connection.redisUri().getPort()).isEqualTo(6380);
                    assertThat(connection.redisUri().getDatabase()).isEqualTo(2);
                    assertThat(connection.redisUri().isSsl()).isTrue();
                    assertThat(connection
                                    .redisUri()
                                    .getCredentialsProvider()
                                    .resolveCredentials()
                                    .block()
                                    .getUsername())
                            .isEqualTo("app");
                    assertThat(connection.toString()).doesNotContain("s3cret");
                });
        runner().withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .withPropertyValues(
                        "spring.data.redis.cluster.nodes=node-a:7000,node-b:7001", "spring.data.redis.password=pw")
                .withBean("standIn", Hourglass.class, factory::create)
                .run(context -> assertThat(
                                context.getBean(HourglassRedisConnection.class).clusterNodes())
                        .containsExactly("redis://:pw@node-a:7000", "redis://:pw@node-b:7001"));
    }

    @Test
    void anUnreachableRedisFailsTheStartUpWithAnAnalysisNamingTheAddressAndItsSource(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(EmptyApplication.class)
                        .web(WebApplicationType.NONE)
                        .properties(
                                "spring.data.redis.host=127.0.0.1",
                                "spring.data.redis.port=1",
                                "spring.main.banner-mode=off")
                        .run())
                .satisfies(failure -> assertThat(messages(failure)).contains("Hourglass cannot connect to Redis"));
        assertThat(output.getAll())
                .contains("APPLICATION FAILED TO START")
                .contains("Hourglass could not connect to Redis at redis://127.0.0.1:1 (spring.data.redis)")
                .contains("That address is the spring.data.redis.* properties")
                .contains("Action:")
                .contains("hourglass.embedded-redis.enabled=true");
    }

    @Test
    void withFailFastFalseTheApplicationStartsReportsDownAndItsListenersStartOnceRedisAnswers(HourglassFactory factory)
            throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (RedisServerProcess later = RedisServerProcess.builder().port(port).build()) {
            runner().withPropertyValues(
                            "hourglass.redis.uri=redis://127.0.0.1:" + port,
                            "hourglass.fail-fast=false",
                            "hourglass.namespace=" + factory.namespace(),
                            "hourglass.sweep-interval=200ms")
                    .withBean(SlowListener.class)
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(line().health(context).status()).isEqualTo("DOWN");
                        later.start();
                        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(
                                        line().health(context).status())
                                .isEqualTo("UP"));
                        context.getBean(HourglassTemplate.class).schedule("slow", "s-1", "work", Duration.ZERO);
                        assertThat(context.getBean(SlowListener.class).started.await(10, TimeUnit.SECONDS))
                                .as("the listener started once Redis answered")
                                .isTrue();
                    });
        }
    }

    @Test
    void theEmbeddedRedisRunsWithTheContextAndStopsAfterTheListenersDrained(CapturedOutput output) throws Exception {
        RedisServerProcess redis;
        Acks acks;
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(EmbeddedRedisApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "hourglass.embedded-redis.enabled=true",
                        "hourglass.sweep-interval=200ms",
                        "spring.main.banner-mode=off")
                .run()) {
            redis = app.getBean(RedisServerProcess.class);
            acks = app.getBean(Acks.class);
            HourglassRedisConnection connection = app.getBean(HourglassRedisConnection.class);
            assertThat(connection.source()).isEqualTo(HourglassEmbeddedRedisAutoConfiguration.SOURCE);
            assertThat(connection.redisUri().getPort()).isEqualTo(redis.port());
            app.getBean(HourglassTemplate.class).schedule("slow", "s-1", "work", Duration.ZERO);
            assertThat(app.getBean(SlowListener.class).started.await(10, TimeUnit.SECONDS))
                    .isTrue();
        }
        assertThat(acks.acked)
                .as("the running job was acked while Redis still ran")
                .containsExactly("s-1");
        assertThat(redis.isRunning()).isFalse();
        assertThat(output.getAll()).doesNotContain("Cannot reconnect").doesNotContain("Connection refused");
    }

    @Test
    void withTheDefaultsAnApplicationWithAHandlerStillRunningExitsWithinKubernetesGracePeriod(
            HourglassFactory factory, CapturedOutput output) throws Exception {
        ConfigurableApplicationContext app = new SpringApplicationBuilder(HangingApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "hourglass.redis.uri=" + factory.redisUri(),
                        "hourglass.namespace=" + factory.namespace(),
                        "hourglass.sweep-interval=200ms",
                        "spring.main.banner-mode=off")
                .run();
        app.getBean(HourglassTemplate.class).schedule("hanging", "h-1", "work", Duration.ZERO);
        assertThat(app.getBean(HangingListener.class).started.await(10, TimeUnit.SECONDS))
                .isTrue();
        long start = System.nanoTime();
        app.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        // The grace (20 s), then up to 5 s for a handler that ignores its interrupt: within Spring's 30 s phase
        // timeout and Kubernetes' 30 s termination grace period, with a margin for a slow machine.
        assertThat(took).isBetween(Duration.ofSeconds(19), Duration.ofSeconds(27));
        assertThat(output.getAll()).doesNotContain("still running after timeout");
    }

    @Test
    void autoStartupOffSaysSoAndTwoListenersOnOneTopicAreWarnedAbout(HourglassFactory factory, CapturedOutput output) {
        runner(factory.redisUri(), factory.namespace())
                .withBean(CompetingListeners.class)
                .withPropertyValues("hourglass.listener.auto-startup=false")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output.getAll())
                            .contains("hourglass.listener.auto-startup=false: the @HourglassListener methods of topics"
                                    + " [orders] are not started")
                            .containsPattern("WARN .*Two @HourglassListener methods consume topic 'orders': "
                                    + ".*CompetingListeners\\.first\\(String\\).* and .*CompetingListeners"
                                    + "\\.second\\(String\\)");
                });
    }

    /** An application with nothing of its own. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class EmptyApplication {}

    /** An application with a slow listener and a record of acks. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class EmbeddedRedisApplication {
        /** @return the listener */
        @Bean
        public SlowListener slowListener() {
            return new SlowListener();
        }

        /** @return the record of acks */
        @Bean
        public Acks acks() {
            return new Acks();
        }
    }

    /** An application whose listener never finishes on its own. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class HangingApplication {
        /** @return the listener */
        @Bean
        public HangingListener hangingListener() {
            return new HangingListener();
        }
    }

    /** Records acked jobs. */
    public static class Acks implements JobEvents {
        final List<String> acked = new CopyOnWriteArrayList<>();

        @Override
        public void acked(Job job, Duration handlerTime) {
            acked.add(job.id());
        }
    }

    /** Takes a while. */
    public static class SlowListener {
        final CountDownLatch started = new CountDownLatch(1);

        @HourglassListener(topic = "slow")
        void work(String payload) throws InterruptedException {
            started.countDown();
            Thread.sleep(1_000);
        }
    }

    /** Never finishes on its own, interrupted or not. */
    public static class HangingListener {
        final CountDownLatch started = new CountDownLatch(1);

        @HourglassListener(topic = "hanging")
        void work(String payload) {
            started.countDown();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < until) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    // keeps running: the worst case for the shutdown
                }
            }
        }
    }

    /** Two methods on one topic. */
    public static class CompetingListeners {
        @HourglassListener(topic = "orders")
        void first(String payload) {}

        @HourglassListener(topic = "orders")
        void second(String payload) {}
    }
}
