package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.spring.HourglassRedisConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Without {@code --redis} the starter's {@link Hourglass} bean connects to the server's embedded Redis, which starts
 * before it, stops after it and keeps the jobs in the data dir across restarts.
 */
class EmbeddedRedisIntegrationTests {
    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theStartersHourglassRunsOnTheEmbeddedRedisWhichOutlivesIt() throws Exception {
        Api api = start();
        assertThat(server.getBean(HourglassRedisConnection.class).source()).startsWith("embedded Redis in ");
        var beans = server.getBeanFactory();
        assertThat(beans.getDependenciesForBean("hourglass")).contains("embeddedRedisConnection");
        assertThat(beans.getDependenciesForBean("embeddedRedisConnection")).contains("embeddedRedis");
        assertThat(api.post("/v1/topics/kept/jobs", json("id", "later", "delayMs", 600_000, "payload", 1))
                        .status())
                .isEqualTo(201);
        long redisPid =
                Long.parseLong(Files.readString(dataDir.resolve("redis.pid")).trim());

        server.close();
        assertThat(ProcessHandle.of(redisPid).map(ProcessHandle::isAlive).orElse(false))
                .as("Redis after close")
                .isFalse();

        Api restarted = start();
        var job = restarted.get("/v1/topics/kept/jobs/later");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.body().get("state").asText()).isEqualTo("SCHEDULED");
    }

    private Api start() {
        server = SpringApplication.run(HourglassServer.class, "--server.port=0", "--hourglass.data-dir=" + dataDir);
        return new Api(
                ((ServletWebServerApplicationContext) server).getWebServer().getPort());
    }
}
