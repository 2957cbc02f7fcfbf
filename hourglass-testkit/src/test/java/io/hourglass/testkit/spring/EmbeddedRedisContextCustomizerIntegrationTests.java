package io.hourglass.testkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.embedded.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.test.context.ContextCustomizer;

/** The shared Redis of {@link EmbeddedRedis} contexts: one for all, stopped when the last context closes. */
class EmbeddedRedisContextCustomizerIntegrationTests {
    private final EmbeddedRedisContextCustomizerFactory factory = new EmbeddedRedisContextCustomizerFactory();

    @EmbeddedRedis
    static class Annotated {}

    static class Subclass extends Annotated {}

    static class Plain {}

    @Test
    void onlyAnnotatedTestClassesAndTheirSubclassesGetTheCustomizerWhichLeavesCacheKeysEqual() {
        ContextCustomizer annotated = factory.createContextCustomizer(Annotated.class, List.of());
        assertThat(annotated).isNotNull().isEqualTo(factory.createContextCustomizer(Subclass.class, List.of()));
        assertThat(annotated.hashCode())
                .isEqualTo(factory.createContextCustomizer(Subclass.class, List.of())
                        .hashCode());
        assertThat(factory.createContextCustomizer(Plain.class, List.of())).isNull();
    }

    @Test
    void contextsShareOneRedisThatStopsWhenTheLastOneCloses() {
        ContextCustomizer customizer = factory.createContextCustomizer(Annotated.class, List.of());
        GenericApplicationContext first = new GenericApplicationContext();
        GenericApplicationContext second = new GenericApplicationContext();
        customizer.customizeContext(first, null);
        customizer.customizeContext(second, null);
        first.refresh();
        second.refresh();
        RedisServerProcess redis = SharedRedisServer.current();
        assertThat(redis).isNotNull();
        String uri = first.getEnvironment().getProperty("hourglass.redis.uri");
        assertThat(uri).isEqualTo(redis.uri()).isEqualTo(second.getEnvironment().getProperty("hourglass.redis.uri"));
        assertThat(first.getEnvironment().getProperty("spring.data.redis.port", Integer.class))
                .isEqualTo(redis.port());
        assertThat(ping(uri)).isEqualTo("PONG");

        first.close();
        assertThat(redis.isRunning()).as("still used by the second context").isTrue();
        second.close();
        assertThat(redis.isRunning()).isFalse();
        assertThat(SharedRedisServer.current()).isNull();
    }

    private static String ping(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().ping();
        } finally {
            client.shutdown();
        }
    }
}
