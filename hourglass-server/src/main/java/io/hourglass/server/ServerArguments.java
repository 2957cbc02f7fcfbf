package io.hourglass.server;

import io.hourglass.CallbackOptions;
import io.hourglass.HandlerThreads;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.history.jdbc.HistoryArchiver;
import io.hourglass.server.auth.ApiAccess;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.convert.DurationStyle;

/**
 * The server's command line: each flag accepted as {@code --name value} and {@code --name=value}, each with an
 * environment variable {@code HOURGLASS_NAME} as a fallback (a flag wins over the variable). Immutable. A switch
 * ({@code --insecure}) needs no value; API tokens are read from the environment or a file only, never from the command
 * line. Parsing also refuses a start that would leave the API of a shared Redis unauthenticated.
 *
 * @param help whether {@code --help} was given
 * @param values the settings given, by flag name without the dashes (e.g. {@code data-dir}); absent = default
 */
public record ServerArguments(boolean help, Map<String, String> values) {
    /** Each shard's stream cap with {@code --history-jdbc-url} when {@code --history-stream-length} is not given. */
    public static final long DEFAULT_HISTORY_STREAM_LENGTH = HourglassProperties.History.DEFAULT_ARCHIVED_STREAM_LENGTH;

    /** The flags, with their Spring property and help text. */
    enum Flag {
        PORT("port", "server.port", "HTTP port; 0 picks a free one (default 8080)"),
        BIND(
                "bind",
                "hourglass.bind",
                "address the API listens on, e.g. 0.0.0.0 for all interfaces (default 127.0.0.1 without API"
                        + " tokens, all interfaces with them)"),
        REDIS(
                "redis",
                "hourglass.redis",
                "Redis URI, e.g. redis://host:6379 or rediss://user:pass@host:6380 (TLS,"
                        + " ACL user); absent = embedded Redis (development)"),
        DATA_DIR("data-dir", "hourglass.data-dir", "data folder of the embedded Redis (default ./hourglass-data)"),
        NAMESPACE("namespace", "hourglass.namespace", "key namespace in Redis (default \"default\")"),
        SHARDS("shards", "hourglass.shards", "shards per topic (default 1)"),
        MAX_PAYLOAD_BYTES(
                "max-payload-bytes",
                "hourglass.max-payload-bytes",
                "largest job payload, in bytes" + " (default " + HourglassBuilder.DEFAULT_MAX_PAYLOAD_BYTES
                        + "); bigger ones are refused with 413"),
        MAX_DELAY_MS(
                "max-delay-ms",
                "hourglass.max-delay-ms",
                "longest delay (or runAt ahead), in ms (default " + HourglassBuilder.DEFAULT_MAX_DELAY.toMillis()
                        + ", 3650 days)"),
        IDEMPOTENCY_WINDOW(
                "idempotency-window",
                "hourglass.idempotency-window",
                "how long a job's id stays reserved after the job is acked, cancelled or its dead letter deleted,"
                        + " e.g. 1h, 30m, 0 (off), bare numbers in ms (default "
                        + HourglassBuilder.DEFAULT_IDEMPOTENCY_WINDOW.toMinutes() + "m)"),
        SCHEDULE_TICKER(
                "schedule-ticker",
                "hourglass.schedule-ticker",
                "run the ticker that turns recurring schedules' ticks into jobs (default true); every server that"
                        + " runs it shares the work, and each tick is still one job",
                Kind.SWITCH),
        COMPLETED_RETENTION(
                "completed-retention",
                "hourglass.completed-retention",
                "how long an acked job stays readable as COMPLETED with its result, e.g. 1h, 10m; 0 (default) is"
                        + " off. Costs memory per job kept"),
        DEAD_LETTER_MAX_COUNT(
                "dead-letter-max-count",
                "hourglass.dead-letter-max-count",
                "dead letters a topic keeps at most; the oldest beyond it are deleted and counted; 0 for no limit"
                        + " (default " + HourglassBuilder.DEFAULT_DEAD_LETTER_MAX_COUNT + ")"),
        DEAD_LETTER_MAX_AGE(
                "dead-letter-max-age",
                "hourglass.dead-letter-max-age",
                "age past which a dead letter is deleted and counted, e.g. 14d, 12h; 0 for no limit (default "
                        + HourglassBuilder.DEFAULT_DEAD_LETTER_MAX_AGE.toDays() + "d)"),
        TOKENS_FILE("tokens-file", "hourglass.tokens-file", "JSON file of API tokens and their topics and rights"),
        TOKENS(
                "tokens",
                "hourglass.tokens",
                "API tokens as JSON, like --tokens-file (environment only: a command"
                        + " line is visible to other users)",
                Kind.ENVIRONMENT_ONLY),
        INSECURE(
                "insecure",
                "hourglass.insecure",
                "allow running without API tokens on an external Redis (default" + " false)",
                Kind.SWITCH),
        WAIT_FOR_REPLICAS(
                "wait-for-replicas",
                "hourglass.wait-for-replicas",
                "replicas that must confirm each write that creates or moves a job (Redis WAIT) before the"
                        + " answer; 0 (default) does not wait. Not with a Redis Cluster"),
        REPLICA_WAIT_TIMEOUT_MS(
                "replica-wait-timeout-ms",
                "hourglass.replica-wait-timeout-ms",
                "how long a write waits for those replicas, in ms (default 1000); then 503"),
        CALLBACK_SECRET(
                "callback-secret",
                "hourglass.callback-secret",
                "HMAC key (16+ characters) that signs every"
                        + " callback (header Hourglass-Signature); prefer the environment variable"),
        CALLBACK_NEXT_SECRET(
                "callback-next-secret",
                "hourglass.callback-next-secret",
                "the HMAC key that will replace --callback-secret: each callback also carries a signature made with"
                        + " it, for a key rotation; prefer the environment variable"),
        CALLBACK_ALLOW(
                "callback-allow",
                "hourglass.callback-allow",
                "comma-separated hosts callbacks may reach: names, *.domain, IPs, CIDRs (default: any public"
                        + " address; internal ones only when an IP or CIDR here covers them)"),
        CALLBACK_VIRTUAL_THREADS(
                "callback-virtual-threads",
                "hourglass.callback-virtual-threads",
                "send callbacks"
                        + " from virtual threads, so that slow receivers hold no kernel thread each (Java 21 or later;"
                        + " default"
                        + " false)",
                Kind.SWITCH),
        HISTORY_JDBC_URL(
                "history-jdbc-url",
                "hourglass.history-jdbc-url",
                "PostgreSQL JDBC URL of the job history, e.g. jdbc:postgresql://db:5432/app: turns the completion"
                        + " events on, archives every ended job there and serves GET /v1/history (default: no history)"),
        HISTORY_JDBC_USER("history-jdbc-user", "hourglass.history-jdbc-user", "database user of the job history"),
        HISTORY_JDBC_PASSWORD(
                "history-jdbc-password",
                "hourglass.history-jdbc-password",
                "that user's password; prefer the environment variable"),
        HISTORY_RETENTION(
                "history-retention",
                "hourglass.history-retention",
                "how long the job history keeps an entry after its job ended, e.g. 90d; 0 keeps entries forever"
                        + " (default 30d)"),
        HISTORY_STREAM_LENGTH(
                "history-stream-length",
                "hourglass.history.stream-length",
                "stream entries (one script call's completion events each) each shard's stream keeps for the"
                        + " archiver at most; older ones are dropped (and counted) while PostgreSQL is down (default "
                        + DEFAULT_HISTORY_STREAM_LENGTH
                        + ")"),
        TIER_JDBC_URL(
                "tier-jdbc-url",
                "hourglass.tier.jdbc.url",
                "PostgreSQL JDBC URL of the cold tier, e.g. jdbc:postgresql://db:5432/app: jobs due beyond"
                        + " --tier-horizon wait there, and this server's feeder moves them into Redis ahead of their"
                        + " due time (default: every job in Redis)"),
        TIER_JDBC_USER("tier-jdbc-user", "hourglass.tier.jdbc.user", "database user of the cold tier"),
        TIER_JDBC_PASSWORD(
                "tier-jdbc-password",
                "hourglass.tier.jdbc.password",
                "that user's password; prefer the environment variable"),
        TIER_HORIZON(
                "tier-horizon",
                "hourglass.tier.horizon",
                "with --tier-jdbc-url: jobs due more than this far ahead go to PostgreSQL, e.g. 1h; at least 1s");

        /** How a flag takes its value. */
        enum Kind {
            /** {@code --name value} or {@code --name=value}. */
            VALUE,
            /** {@code --name} alone means true; {@code --name=true|false}. */
            SWITCH,
            /** Only from the environment variable, never the command line. */
            ENVIRONMENT_ONLY
        }

        final String name;
        final String property;
        final String help;
        final Kind kind;

        Flag(String name, String property, String help) {
            this(name, property, help, Kind.VALUE);
        }

        Flag(String name, String property, String help, Kind kind) {
            this.name = name;
            this.property = property;
            this.help = help;
            this.kind = kind;
        }

        String envVar() {
            return "HOURGLASS_" + name.replace('-', '_').toUpperCase(Locale.ROOT);
        }

        static Flag named(String name) {
            for (Flag f : values()) {
                if (f.name.equals(name)) {
                    if (f.kind == Kind.ENVIRONMENT_ONLY) {
                        throw new IllegalArgumentException(name + ": give it in the environment variable " + f.envVar()
                                + ", not on the command line, which other users of the machine can read");
                    }
                    return f;
                }
            }
            throw new IllegalArgumentException(name + ": unknown option --" + name + " (see --help)");
        }
    }

    /** Copies the map. */
    public ServerArguments {
        values = Map.copyOf(values);
    }

    /**
     * Reads the flags, then the environment for the settings the flags did not give.
     *
     * @param args the command line
     * @param env the environment, usually {@code System.getenv()}
     * @return the arguments
     * @throws IllegalArgumentException naming the option when a flag is unknown, lacks a value or is malformed, when
     *     the tokens file cannot be read, or when no tokens are given for an external Redis without {@code --insecure}
     */
    public static ServerArguments parse(String[] args, Map<String, String> env) {
        Map<String, String> values = new LinkedHashMap<>();
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                help = true;
                continue;
            }
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException(arg + ": unexpected argument (see --help)");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            Flag flag = Flag.named(name);
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (flag.kind == Flag.Kind.SWITCH) {
                value = "true";
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(name + ": --" + name + " needs a value");
            }
            values.put(flag.name, value);
        }
        for (Flag flag : Flag.values()) {
            String fromEnv = env.get(flag.envVar());
            if (!values.containsKey(flag.name) && fromEnv != null && !fromEnv.isBlank()) {
                values.put(flag.name, fromEnv);
            }
        }
        check(values);
        return new ServerArguments(help, values);
    }

    /** Checks each given value the way the server will use it, so that a mistake stops the start with its name. */
    private static void check(Map<String, String> values) {
        checkInteger(values, Flag.PORT, 0, 65535);
        checkInteger(values, Flag.SHARDS, 1, 1024);
        checkInteger(values, Flag.WAIT_FOR_REPLICAS, 0, 64);
        checkInteger(values, Flag.REPLICA_WAIT_TIMEOUT_MS, 1, 3_600_000);
        checkAddress(values, Flag.BIND);
        checkInteger(values, Flag.MAX_PAYLOAD_BYTES, 1, 512 << 20);
        checkInteger(values, Flag.MAX_DELAY_MS, 1, Long.MAX_VALUE);
        checkIdempotencyWindow(values);
        checkDuration(values, Flag.COMPLETED_RETENTION, "between 0 (off) and 366 days", d -> Hourglass.builder()
                .completedRetention(d));
        checkInteger(values, Flag.DEAD_LETTER_MAX_COUNT, 0, Integer.MAX_VALUE);
        checkDuration(values, Flag.DEAD_LETTER_MAX_AGE, "between 0 (no limit) and 3650 days", d -> Hourglass.builder()
                .deadLetterLimits(0, d));
        checkBoolean(values, Flag.INSECURE);
        checkBoolean(values, Flag.SCHEDULE_TICKER);
        checkBoolean(values, Flag.CALLBACK_VIRTUAL_THREADS);
        if (Boolean.parseBoolean(
                values.getOrDefault(Flag.CALLBACK_VIRTUAL_THREADS.name, "false").trim())) {
            HandlerThreads.requireVirtualThreads(Flag.CALLBACK_VIRTUAL_THREADS.name);
        }
        // The builders' checks name the field: "namespace: ...", "redisUri: ...", "callbackAllowList: ...".
        if (values.containsKey(Flag.NAMESPACE.name)) {
            Hourglass.builder().namespace(values.get(Flag.NAMESPACE.name).trim());
        }
        if (values.containsKey(Flag.REDIS.name)) {
            Hourglass.builder().redisUri(values.get(Flag.REDIS.name).trim());
        }
        if (values.containsKey(Flag.CALLBACK_ALLOW.name)) {
            String entries = values.get(Flag.CALLBACK_ALLOW.name);
            Hourglass.builder().callbackAllowList(StarterPropertiesMapping.splitList(entries));
        }
        if (values.containsKey(Flag.CALLBACK_SECRET.name) || values.containsKey(Flag.CALLBACK_NEXT_SECRET.name)) {
            String secret = values.get(Flag.CALLBACK_SECRET.name);
            String next = values.get(Flag.CALLBACK_NEXT_SECRET.name);
            CallbackOptions.builder()
                    .signingSecret(secret == null ? null : secret.trim())
                    .nextSigningSecret(next == null ? null : next.trim())
                    .build();
        }
        checkHistory(values);
        checkTier(values);
        String tokensFile = values.get(Flag.TOKENS_FILE.name);
        ApiAccess.configure(
                values.get(Flag.TOKENS.name),
                tokensFile == null ? null : Path.of(tokensFile.trim()),
                !values.containsKey(Flag.REDIS.name),
                Boolean.parseBoolean(values.get(Flag.INSECURE.name)));
    }

    /** The history's flags: a PostgreSQL URL, and the others only with it. */
    private static void checkHistory(Map<String, String> values) {
        String url = values.get(Flag.HISTORY_JDBC_URL.name);
        if (url == null) {
            for (Flag f : List.of(
                    Flag.HISTORY_JDBC_USER,
                    Flag.HISTORY_JDBC_PASSWORD,
                    Flag.HISTORY_RETENTION,
                    Flag.HISTORY_STREAM_LENGTH)) {
                if (values.containsKey(f.name)) {
                    throw new IllegalArgumentException(f.name + ": needs --history-jdbc-url");
                }
            }
            return;
        }
        checkPostgresUrl(Flag.HISTORY_JDBC_URL, url);
        checkDuration(values, Flag.HISTORY_RETENTION, "0 (forever) or more", d -> HistoryArchiver.builder()
                .retention(d));
        checkInteger(values, Flag.HISTORY_STREAM_LENGTH, 1, 1_000_000_000);
    }

    /** The cold tier's flags: a PostgreSQL URL and a horizon, and the others only with the URL. */
    private static void checkTier(Map<String, String> values) {
        String url = values.get(Flag.TIER_JDBC_URL.name);
        if (url == null) {
            for (Flag f : List.of(Flag.TIER_JDBC_USER, Flag.TIER_JDBC_PASSWORD, Flag.TIER_HORIZON)) {
                if (values.containsKey(f.name)) {
                    throw new IllegalArgumentException(f.name + ": needs --tier-jdbc-url");
                }
            }
            return;
        }
        checkPostgresUrl(Flag.TIER_JDBC_URL, url);
        if (!values.containsKey(Flag.TIER_HORIZON.name)) {
            throw new IllegalArgumentException(Flag.TIER_HORIZON.name
                    + ": needed with --tier-jdbc-url: jobs due more than this far ahead go to PostgreSQL, e.g. 1h");
        }
        checkDuration(values, Flag.TIER_HORIZON, "at least 1s", d -> {
            if (d.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("horizon");
            }
        });
    }

    private static void checkPostgresUrl(Flag flag, String url) {
        if (!url.trim().startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(flag.name
                    + ": must be a PostgreSQL JDBC URL such as jdbc:postgresql://host:5432/database, got '"
                    + maskJdbcUrl(url) + "'");
        }
    }

    /** A JDBC URL with its password parameter masked. */
    static String maskJdbcUrl(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1****");
    }

    private static void checkIdempotencyWindow(Map<String, String> values) {
        checkDuration(values, Flag.IDEMPOTENCY_WINDOW, "between 0 (off) and 366 days", d -> Hourglass.builder()
                .idempotencyWindow(d));
    }

    /** Checks a duration flag as the starter binds it, then by the builder's own check ({@code range} its words). */
    private static void checkDuration(
            Map<String, String> values, Flag flag, String range, java.util.function.Consumer<Duration> builderCheck) {
        String text = values.get(flag.name);
        if (text == null) {
            return;
        }
        Duration duration;
        try {
            // As the starter binds the property: 1h, 30m, 500ms, an ISO-8601 PT1H, or bare ms.
            duration = DurationStyle.detectAndParse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    flag.name + ": must be a duration such as 1h, 30m or 0, got '" + text + "'");
        }
        try {
            builderCheck.accept(duration);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag.name + ": must be " + range + ", got '" + text + "'");
        }
    }

    private static void checkInteger(Map<String, String> values, Flag flag, long min, long max) {
        String text = values.get(flag.name);
        if (text == null) {
            return;
        }
        try {
            long n = Long.parseLong(text.trim());
            if (n >= min && n <= max) {
                return;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(
                flag.name + ": must be an integer from " + min + " to " + max + ", got '" + text + "'");
    }

    private static void checkAddress(Map<String, String> values, Flag flag) {
        String text = values.get(flag.name);
        if (text == null) {
            return;
        }
        String address = text.trim();
        try {
            if (!address.isEmpty() && !address.contains(" ")) {
                InetAddress.getByName(address);
                return;
            }
        } catch (UnknownHostException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(
                flag.name + ": must be an IP address or host name of this machine, e.g. 127.0.0.1 or 0.0.0.0, got '"
                        + text + "'");
    }

    private static void checkBoolean(Map<String, String> values, Flag flag) {
        String text = values.get(flag.name);
        if (text != null
                && !text.trim().equalsIgnoreCase("true")
                && !text.trim().equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(flag.name + ": must be true or false, got '" + text + "'");
        }
    }

    /**
     * @return the settings, with the API tokens, the callback secrets, a Redis URI's password and the history's and the
     *     cold tier's passwords (flag or {@code password=} of its URL) masked
     */
    @Override
    public String toString() {
        Map<String, String> shown = new LinkedHashMap<>(values);
        shown.replaceAll((name, value) -> name.equals(Flag.TOKENS.name)
                        || name.equals(Flag.CALLBACK_SECRET.name)
                        || name.equals(Flag.CALLBACK_NEXT_SECRET.name)
                        || name.equals(Flag.HISTORY_JDBC_PASSWORD.name)
                        || name.equals(Flag.TIER_JDBC_PASSWORD.name)
                ? "****"
                : name.equals(Flag.REDIS.name)
                        ? value.replaceAll("//([^:/@]*):[^@/]*@", "//$1:****@")
                        : name.equals(Flag.HISTORY_JDBC_URL.name) || name.equals(Flag.TIER_JDBC_URL.name)
                                ? maskJdbcUrl(value)
                                : value);
        return "ServerArguments[help=" + help + ", values=" + shown + "]";
    }

    /** @return the settings as Spring command-line arguments ({@code --server.port=8080}, ...) */
    public String[] toSpringArgs() {
        List<String> out = new ArrayList<>();
        for (Flag flag : Flag.values()) {
            String value = values.get(flag.name);
            if (value != null) {
                out.add("--" + flag.property + "=" + value.trim());
            }
        }
        return out.toArray(String[]::new);
    }

    /** @return the usage text of {@code --help} */
    public static String usage() {
        StringBuilder sb = new StringBuilder("Usage: java -jar hourglass-server.jar [options]\n\n"
                + "Hourglass: a delay queue on Redis, over HTTP. Options (each also read from its environment"
                + " variable):\n");
        for (Flag flag : Flag.values()) {
            String option =
                    switch (flag.kind) {
                        case VALUE -> "--" + flag.name + " <value>";
                        case SWITCH -> "--" + flag.name;
                        case ENVIRONMENT_ONLY -> "(environment)";
                    };
            sb.append(String.format("  %-27s %-28s %s%n", option, flag.envVar(), flag.help));
        }
        return sb.append(String.format("  %-27s %-28s %s%n", "--help", "", "print this help and exit"))
                .toString();
    }
}
