package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hourglass.CallbackOptions;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * A busy instance gets a restarted Redis back within seconds. Redis is killed (SIGKILL) while the callback dispatcher,
 * one worker over every shard of several topics, has ready jobs left on each and claims in flight, and is started again
 * on the same port and append-only file. The claims that the lost connection failed used to start the claims of the
 * other shards on Lettuce's event loop, each failing at once and starting the next, so that thread never got to
 * reconnect: the instance answered "Currently not connected" until it was restarted.
 */
@RedisTest(shards = 4)
class RedisRestartRecoveryIntegrationTests {
    private static final Duration SWEEP = Duration.ofMillis(250);
    /** How soon after Redis is back scheduling works again, and then how soon a new job is delivered. */
    private static final Duration BOUND = Duration.ofSeconds(5);

    @Test
    void aBusyInstanceSchedulesAndDeliversAgainWithinSecondsOfARedisRestart(HourglassFactory factory) throws Exception {
        Map<String, Long> received = new ConcurrentHashMap<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ExecutorService receiverThreads = Executors.newCachedThreadPool();
        receiver.setExecutor(receiverThreads);
        receiver.createContext("/hook", exchange -> {
            received.put(exchange.getRequestHeaders().getFirst("Hourglass-Job-Id"), System.currentTimeMillis());
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        URI hook = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
        try (RedisServerProcess own = RedisServerProcess.builder()
                .appendOnly(true)
                .appendFsync("always")
                .start()) {
            Hourglass hourglass = factory.create(
                    b -> b.redisUri(own.uri()).sweepInterval(SWEEP).callbackAllowList(List.of("127.0.0.1")));
            CompletableFuture<?>[] scheduled = new CompletableFuture<?>[4000];
            for (int i = 0; i < scheduled.length; i++) {
                scheduled[i] = hourglass.scheduleAsync(JobRequest.builder("busy" + (i % 4))
                        .id("b" + i)
                        .callbackUrl(hook)
                        .build());
            }
            CompletableFuture.allOf(scheduled).join();
            hourglass.startCallbackDelivery(
                    CallbackOptions.builder().concurrency(64).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() >= 200);

            own.kill();
            Pause.millis(2000);
            own.restart();
            long restartedAt = System.currentTimeMillis();

            await().atMost(BOUND)
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(() -> hourglass
                            .schedule(JobRequest.builder("fresh")
                                    .id("after")
                                    .callbackUrl(hook)
                                    .build())
                            .id()
                            .equals("after"));
            assertThat(System.currentTimeMillis() - restartedAt).isLessThan(BOUND.toMillis());
            await().atMost(BOUND).until(() -> received.containsKey("after"));
            hourglass.close();
        } finally {
            receiver.stop(0);
            receiverThreads.shutdownNow();
        }
    }
}
