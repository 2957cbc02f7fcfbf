package io.hourglass.server;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Translates the server's settings ({@code hourglass.redis}, {@code hourglass.max-payload-bytes}, … which the
 * command-line flags set, see {@link ServerArguments}) into the properties of hourglass-spring-boot-starter, which
 * builds the {@link io.hourglass.Hourglass} bean and runs callback delivery from them:
 *
 * <table>
 *   <caption>server setting → starter property</caption>
 *   <tr><td>{@code hourglass.redis}</td><td>{@code hourglass.redis.uri}</td></tr>
 *   <tr><td>{@code hourglass.max-payload-bytes}</td><td>{@code hourglass.max-payload-size} (bytes)</td></tr>
 *   <tr><td>{@code hourglass.max-delay-ms}</td><td>{@code hourglass.max-delay} (ms)</td></tr>
 *   <tr><td>{@code hourglass.callback-secret}</td><td>{@code hourglass.callback-delivery.signing-secret}</td></tr>
 *   <tr><td>{@code hourglass.callback-next-secret}</td>
 *       <td>{@code hourglass.callback-delivery.next-signing-secret}</td></tr>
 *   <tr><td>{@code hourglass.callback-allow}</td><td>{@code hourglass.callback-delivery.allow-list}</td></tr>
 *   <tr><td>{@code hourglass.callback-virtual-threads}</td>
 *       <td>{@code hourglass.callback-delivery.virtual-threads}</td></tr>
 *   <tr><td>{@code hourglass.wait-for-replicas}</td><td>{@code hourglass.replication.wait-for-replicas}</td></tr>
 *   <tr><td>{@code hourglass.replica-wait-timeout-ms}</td><td>{@code hourglass.replication.wait-timeout} (ms)</td></tr>
 *   <tr><td>{@code hourglass.bind}</td><td>{@code server.address} (Spring Boot's)</td></tr>
 *   <tr><td>{@code hourglass.history-jdbc-url}</td><td>{@code hourglass.history.jdbc.url}: the starter's archiver
 *       and {@code HistoryStore} (for {@code GET /v1/history}), and the completion events on (100,000 per shard unless
 *       {@code hourglass.history.stream-length} is set)</td></tr>
 *   <tr><td>{@code hourglass.history-jdbc-user}</td><td>{@code hourglass.history.jdbc.user}</td></tr>
 *   <tr><td>{@code hourglass.history-jdbc-password}</td><td>{@code hourglass.history.jdbc.password}</td></tr>
 *   <tr><td>{@code hourglass.history-retention}</td><td>{@code hourglass.history.retention}</td></tr>
 * </table>
 *
 * <p>The cold tier's flags ({@code --tier-jdbc-url}, {@code --tier-horizon}, …) set the starter's
 * {@code hourglass.tier.*} properties directly (see {@link ServerArguments}).
 *
 * <p>Without {@code hourglass.bind} (and without {@code server.address}) the API listens on 127.0.0.1 when it has no
 * tokens ({@code hourglass.tokens} and {@code hourglass.tokens-file} unset: development mode, or {@code --insecure}),
 * so that an unauthenticated API is not reachable from other hosts unless asked for; with tokens it listens on every
 * interface, as a service deployed for other hosts does.
 *
 * <p>{@code hourglass.namespace} and {@code hourglass.shards} mean the same for both. The translations take precedence
 * over any other source. {@code hourglass.redis.uri} is also what lets the starter bind {@code hourglass.redis}, a
 * plain URI for the server, as its nested {@code hourglass.redis.*} group; so it is set (possibly blank) whenever
 * {@code hourglass.redis} is. Registered in {@code META-INF/spring.factories}.
 */
public class StarterPropertiesMapping implements EnvironmentPostProcessor {
    /** Name of the property source holding the translations. */
    public static final String SOURCE_NAME = "hourglassServerSettings";

    /** The address the API listens on by default when it has no tokens. */
    public static final String LOOPBACK = "127.0.0.1";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> mapped = new LinkedHashMap<>();
        String redis = environment.getProperty("hourglass.redis");
        if (redis != null) {
            mapped.put("hourglass.redis.uri", redis.trim());
        }
        map(environment, "hourglass.max-payload-bytes", value -> mapped.put("hourglass.max-payload-size", value + "B"));
        map(environment, "hourglass.max-delay-ms", value -> mapped.put("hourglass.max-delay", value + "ms"));
        map(
                environment,
                "hourglass.callback-secret",
                value -> mapped.put("hourglass.callback-delivery.signing-secret", value));
        map(
                environment,
                "hourglass.callback-next-secret",
                value -> mapped.put("hourglass.callback-delivery.next-signing-secret", value));
        map(
                environment,
                "hourglass.callback-virtual-threads",
                value -> mapped.put("hourglass.callback-delivery.virtual-threads", value));
        map(environment, "hourglass.callback-allow", value -> {
            List<String> entries = splitList(value);
            for (int i = 0; i < entries.size(); i++) {
                mapped.put("hourglass.callback-delivery.allow-list[" + i + "]", entries.get(i));
            }
        });
        map(
                environment,
                "hourglass.wait-for-replicas",
                value -> mapped.put("hourglass.replication.wait-for-replicas", value));
        map(
                environment,
                "hourglass.replica-wait-timeout-ms",
                value -> mapped.put("hourglass.replication.wait-timeout", value + "ms"));
        map(environment, "hourglass.history-jdbc-url", value -> mapped.put("hourglass.history.jdbc.url", value));
        map(environment, "hourglass.history-jdbc-user", value -> mapped.put("hourglass.history.jdbc.user", value));
        map(
                environment,
                "hourglass.history-jdbc-password",
                value -> mapped.put("hourglass.history.jdbc.password", value));
        map(environment, "hourglass.history-retention", value -> mapped.put("hourglass.history.retention", value));
        String bind = environment.getProperty("hourglass.bind");
        if (bind != null && !bind.isBlank()) {
            mapped.put("server.address", bind.trim());
        } else if (environment.getProperty("server.address") == null && !hasTokens(environment)) {
            mapped.put("server.address", LOOPBACK);
        }
        if (!mapped.isEmpty()) {
            environment.getPropertySources().addFirst(new MapPropertySource(SOURCE_NAME, mapped));
        }
    }

    private static boolean hasTokens(ConfigurableEnvironment environment) {
        String tokens = environment.getProperty("hourglass.tokens");
        String tokensFile = environment.getProperty("hourglass.tokens-file");
        return (tokens != null && !tokens.isBlank()) || (tokensFile != null && !tokensFile.isBlank());
    }

    /**
     * @param commaSeparated e.g. {@code "api.example.com, 10.0.0.0/8"}, or null
     * @return the trimmed, non-empty entries
     */
    static List<String> splitList(String commaSeparated) {
        if (commaSeparated == null) {
            return List.of();
        }
        return Arrays.stream(commaSeparated.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** Calls {@code action} with the trimmed value of {@code property} when it is set and not blank. */
    private static void map(ConfigurableEnvironment environment, String property, Consumer<String> action) {
        String value = environment.getProperty(property);
        if (value != null && !value.isBlank()) {
            action.accept(value.trim());
        }
    }
}
