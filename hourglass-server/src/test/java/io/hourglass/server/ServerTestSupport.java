package io.hourglass.server;

import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs the real server (Tomcat on a random port) against the test class's real redis-server, which the test kit starts
 * and checks for Hourglass invariants after each test. Each test uses topics of its own ({@link #topic()}), since the
 * test kit flushes Redis between tests. {@link ServerSettings} on the class adds settings; without it the server runs
 * without tokens ({@code --hourglass.insecure=true}).
 */
@RedisTest
abstract class ServerTestSupport {
    /** The server's namespace in Redis. */
    static final String NAMESPACE = "server-tests";

    private static final AtomicInteger TOPICS = new AtomicInteger();
    static ConfigurableApplicationContext context;
    static Api api;
    static String redisUri;
    private static RedisClient snapshotClient;
    private static StatefulRedisConnection<String, String> snapshotConnection;

    @BeforeAll
    static void startServer(RedisServerProcess redis, TestInfo info) {
        redisUri = redis.uri();
        List<String> args = new ArrayList<>(
                List.of("--server.port=0", "--hourglass.redis=" + redis.uri(), "--hourglass.namespace=" + NAMESPACE));
        ServerSettings settings = info.getTestClass().orElseThrow().getAnnotation(ServerSettings.class);
        args.addAll(settings == null ? List.of("--hourglass.insecure=true") : List.of(settings.value()));
        context = SpringApplication.run(HourglassServer.class, args.toArray(String[]::new));
        api = new Api(port());
        snapshotClient = RedisClient.create(redisUri);
        snapshotConnection = snapshotClient.connect();
    }

    @AfterAll
    static void stopServer() {
        if (context != null) {
            context.close();
            context = null;
        }
        if (snapshotClient != null) {
            snapshotConnection.close();
            snapshotClient.shutdown();
            snapshotClient = null;
        }
    }

    /** @return the server's HTTP port */
    static int port() {
        return portOf(context);
    }

    /** @return the HTTP port of a server started with {@code --server.port=0} */
    static int portOf(ConfigurableApplicationContext server) {
        return ((ServletWebServerApplicationContext) server).getWebServer().getPort();
    }

    /** @return a topic no other test uses */
    static String topic() {
        return "topic-" + TOPICS.incrementAndGet();
    }

    /** @return every key of the test's Redis with its type and content */
    static RedisSnapshot snapshot() {
        return RedisSnapshot.of(snapshotConnection.sync(), redisUri);
    }
}
