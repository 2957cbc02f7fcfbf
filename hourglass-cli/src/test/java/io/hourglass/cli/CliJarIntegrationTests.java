package io.hourglass.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The runnable jar as a real process, as an operator starts it. Tagged "jar": it runs in Maven's
 * {@code integration-test} phase, after {@code package} has built the jar.
 */
@Tag("jar")
@RedisTest
class CliJarIntegrationTests {
    static final Path JAR = Path.of("target", "hourglass-cli.jar");

    @Test
    void topicsAsJsonFromTheJar(HourglassFactory factory) throws Exception {
        Hourglass hourglass = factory.create();
        hourglass.schedule(JobRequest.builder("orders")
                .payload("1")
                .delay(Duration.ofHours(1))
                .build());
        assertThat(JAR).as("built by 'package'").isRegularFile();

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-jar", JAR.toString(), "topics", "--json");
        builder.environment().put("HOURGLASS_REDIS", factory.redisUri());
        builder.environment().put("HOURGLASS_NAMESPACE", factory.namespace());
        builder.environment().remove("HOURGLASS_CLUSTER");
        builder.environment().remove("HOURGLASS_SHARDS");
        Path stderr = Files.createTempFile("hourglass-cli", ".err");
        builder.redirectError(stderr.toFile());
        Process process = builder.start();
        byte[] stdout = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(stderr);
        Files.delete(stderr);

        assertThat(process.exitValue()).as(err).isZero();
        assertThat(err).isEmpty();
        JsonNode topics = new ObjectMapper().readTree(new String(stdout, StandardCharsets.UTF_8));
        assertThat(topics).hasSize(1);
        assertThat(topics.get(0).get("topic").asText()).isEqualTo("orders");
        assertThat(topics.get(0).get("scheduled").asLong()).isEqualTo(1);
    }
}
