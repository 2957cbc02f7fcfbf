package io.hourglass.chaos;

import io.hourglass.ColdTier;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The Hourglass client settings every process of a scenario shares (checker, producers and workers), as picocli options
 * so that the checker can pass them on to the processes it starts.
 */
final class ClientSettings {
    @Option(names = "--redis", required = true, description = "Redis URI (redis:// or redis-sentinel://)")
    String redisUri;

    @Option(names = "--namespace", defaultValue = "chaos")
    String namespace;

    @Option(names = "--shards", defaultValue = "4")
    int shards;

    @Option(names = "--lease-ms", defaultValue = "2000")
    long leaseMs;

    @Option(names = "--sweep-ms", defaultValue = "250")
    long sweepMs;

    @Option(names = "--command-timeout-ms", defaultValue = "2000")
    long commandTimeoutMs;

    @Option(names = "--wait-replicas", defaultValue = "0", description = "replicas each schedule waits for (WAIT)")
    int waitReplicas;

    /**
     * @param redisUri the scenario's Redis
     * @param options the run's options
     * @return the settings of a scenario's clients, in namespace {@code chaos}, without WAIT
     */
    static ClientSettings of(String redisUri, ChaosOptions options) {
        ClientSettings client = new ClientSettings();
        client.redisUri = redisUri;
        client.namespace = "chaos";
        client.shards = options.shards();
        client.leaseMs = options.leaseMs();
        client.sweepMs = options.sweepMs();
        client.commandTimeoutMs = 2_000;
        return client;
    }

    /** @return the options that reproduce these settings in a child process */
    String[] toArgs() {
        return new String[] {
            "--redis",
            redisUri,
            "--namespace",
            namespace,
            "--shards",
            Integer.toString(shards),
            "--lease-ms",
            Long.toString(leaseMs),
            "--sweep-ms",
            Long.toString(sweepMs),
            "--command-timeout-ms",
            Long.toString(commandTimeoutMs),
            "--wait-replicas",
            Integer.toString(waitReplicas)
        };
    }

    /** Builds a client, retrying while Redis is down (a process may start during a Redis restart or failover). */
    Hourglass connect() throws InterruptedException {
        return connect(null, null);
    }

    /**
     * Builds a client with a cold tier ({@link HourglassBuilder#coldTier}) when {@code tier} is not null, retrying
     * while Redis is down; the tier starts only once Redis answered.
     */
    Hourglass connect(ColdTier tier, Duration horizon) throws InterruptedException {
        long giveUpAt = System.currentTimeMillis() + 120_000;
        while (true) {
            try {
                HourglassBuilder builder = Hourglass.builder()
                        .redisUri(withTimeout(redisUri, commandTimeoutMs))
                        .namespace(namespace)
                        .shards(shards)
                        .defaultLease(Duration.ofMillis(leaseMs))
                        .defaultMaxAttempts(10_000)
                        .sweepInterval(Duration.ofMillis(sweepMs))
                        .commandTimeout(Duration.ofMillis(commandTimeoutMs));
                if (waitReplicas > 0) {
                    builder.waitForReplicas(waitReplicas, Duration.ofSeconds(1));
                }
                if (tier != null) {
                    builder.coldTier(tier, horizon);
                }
                return builder.build();
            } catch (RuntimeException e) {
                // HourglassException, but also Lettuce's own RedisConnectionException, which build() lets through when
                // Redis goes away between its command connection and its pub/sub connection (a core defect)
                if (e instanceof IllegalArgumentException || System.currentTimeMillis() > giveUpAt) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * Works around a core defect: {@code RedisGateway} copies the URI with {@code RedisURI.builder(uri)} to set the
     * command timeout, and Lettuce's copy drops the Sentinel list ("Cannot build a RedisURI"), so a Sentinel URI only
     * works when its own timeout already equals the command timeout.
     */
    static String withTimeout(String uri, long timeoutMs) {
        if (!uri.startsWith("redis-sentinel://") || uri.contains("timeout=")) {
            return uri;
        }
        String timeout = timeoutMs % 1000 == 0 ? timeoutMs / 1000 + "s" : timeoutMs + "ms";
        int fragment = uri.indexOf('#');
        String base = fragment < 0 ? uri : uri.substring(0, fragment);
        String master = fragment < 0 ? "" : uri.substring(fragment);
        return base + (base.contains("?") ? "&" : "?") + "timeout=" + timeout + master;
    }

    /** @return the topic with the given index */
    static String topic(int index) {
        return "t" + index;
    }
}
