package io.hourglass.cli;

import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.HourglassException;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.RedisUnavailableException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code hourglass} command line: inspects and operates a namespace's topics and jobs straight in Redis, through
 * the core's {@link io.hourglass.Inspector}, so it serves library, starter and server users alike.
 *
 * <p>The connection options ({@code --redis}, {@code --cluster}, {@code --namespace}, {@code --shards},
 * {@code --tls-trusted-certificates}) and {@code --json} may be given before or after the subcommand; each connection
 * option falls back to its environment variable ({@code HOURGLASS_REDIS}, {@code HOURGLASS_CLUSTER},
 * {@code HOURGLASS_NAMESPACE}, {@code HOURGLASS_SHARDS}, {@code HOURGLASS_TLS_TRUSTED_CERTIFICATES}), then to the
 * core's default. Every subcommand connects, does its work and closes the connection. Exit codes: {@link #EXIT_OK},
 * {@link #EXIT_NOT_FOUND}, {@link #EXIT_USAGE}, {@link #EXIT_REDIS_UNAVAILABLE}, {@link #EXIT_REFUSED},
 * {@link #EXIT_FAILURE}.
 *
 * <p>{@link #execute} may run on several threads at once: each call builds its own command tree and connection.
 */
@Command(
        name = "hourglass",
        scope = ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = HourglassCli.Version.class,
        description = "Inspects and operates the topics and jobs of a Hourglass namespace in Redis.",
        subcommands = {
            Commands.Topics.class,
            Commands.Stats.class,
            Commands.Jobs.class,
            Commands.Get.class,
            Commands.Cancel.class,
            Commands.Run.class,
            Commands.Dead.class,
            Commands.Requeue.class,
            Commands.Purge.class,
            Commands.Pause.class,
            Commands.Resume.class,
            Commands.Schedule.class,
            ScheduleCommands.class,
            ConfigCommand.class,
            HistoryCommand.class,
            TierCommand.class
        },
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  HOURGLASS_REDIS, HOURGLASS_CLUSTER, HOURGLASS_NAMESPACE, HOURGLASS_SHARDS and",
            "  HOURGLASS_TLS_TRUSTED_CERTIFICATES stand in for the options of the same name",
            "  (an option wins). Prefer HOURGLASS_REDIS for a URI with a password: a command",
            "  line is visible to other users of the machine. HOURGLASS_HISTORY_JDBC_URL,",
            "  _USER and _PASSWORD do the same for the history command's options;",
            "  HOURGLASS_TIER_JDBC_URL, _USER, _PASSWORD and HOURGLASS_TIER_HORIZON for the",
            "  tier command's.",
            "",
            "Shell completion: source <(hourglass completion)"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:not found: no such topic or job",
            "2:usage error: a bad option, argument or value",
            "3:Redis cannot be reached (or refused the login)",
            "4:refused: the job's state does not allow it, or its id is taken",
            "5:any other failure"
        })
public final class HourglassCli implements Callable<Integer> {
    /** Exit code of a command that did what it was asked: {@value}. */
    public static final int EXIT_OK = 0;
    /** Exit code when the topic or job named does not exist: {@value}. */
    public static final int EXIT_NOT_FOUND = 1;
    /** Exit code of a bad option, argument or value; nothing was changed: {@value}. */
    public static final int EXIT_USAGE = 2;
    /** Exit code when Redis cannot be reached, did not answer in time or refused the login: {@value}. */
    public static final int EXIT_REDIS_UNAVAILABLE = 3;
    /** Exit code when the job's state refuses the action (run an ACTIVE job) or its id is taken: {@value}. */
    public static final int EXIT_REFUSED = 4;
    /** Exit code of any other failure: {@value}. */
    public static final int EXIT_FAILURE = 5;

    /** The options that fall back to an environment variable {@code HOURGLASS_<NAME>}. */
    private static final Set<String> ENVIRONMENT_OPTIONS = Set.of(
            "--redis",
            "--cluster",
            "--namespace",
            "--shards",
            "--tls-trusted-certificates",
            "--history-jdbc-url",
            "--history-jdbc-user",
            "--history-jdbc-password",
            "--tier-jdbc-url",
            "--tier-jdbc-user",
            "--tier-jdbc-password",
            "--tier-horizon");

    @Option(
            names = "--redis",
            paramLabel = "URI",
            scope = ScopeType.INHERIT,
            defaultValue = HourglassBuilder.DEFAULT_REDIS_URI,
            description = "Redis URI: redis://[user:password@]host:port[/db], rediss:// for TLS, "
                    + "redis-sentinel://host:port,host:port#master for Sentinel (default: $HOURGLASS_REDIS, else "
                    + HourglassBuilder.DEFAULT_REDIS_URI
                    + ")")
    String redis;

    @Option(
            names = "--cluster",
            paramLabel = "URI",
            split = ",",
            scope = ScopeType.INHERIT,
            description = "seed nodes of a Redis Cluster, comma-separated redis://host:port; replaces --redis"
                    + " (default: $HOURGLASS_CLUSTER)")
    List<String> cluster;

    @Option(
            names = "--namespace",
            paramLabel = "NAME",
            scope = ScopeType.INHERIT,
            defaultValue = HourglassBuilder.DEFAULT_NAMESPACE,
            description = "key namespace in Redis (default: $HOURGLASS_NAMESPACE, else "
                    + HourglassBuilder.DEFAULT_NAMESPACE + ")")
    String namespace;

    @Option(
            names = "--shards",
            paramLabel = "N",
            scope = ScopeType.INHERIT,
            defaultValue = "" + HourglassBuilder.DEFAULT_SHARDS,
            description = "shards per topic, as the namespace's producers and workers use (default:"
                    + " $HOURGLASS_SHARDS, else " + HourglassBuilder.DEFAULT_SHARDS + ")")
    int shards;

    @Option(
            names = "--tls-trusted-certificates",
            paramLabel = "PEM",
            scope = ScopeType.INHERIT,
            description = "trust the certificates in this PEM file (e.g. a private CA) for rediss:// instead of the"
                    + " JVM's trust store (default: $HOURGLASS_TLS_TRUSTED_CERTIFICATES)")
    Path tlsTrustedCertificates;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "print JSON for scripts instead of a table")
    boolean json;

    @Spec
    CommandSpec spec;

    HourglassCli() {}

    /**
     * Without a subcommand there is nothing to do: prints the usage on stderr.
     *
     * @return {@link #EXIT_USAGE}
     */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("hourglass: name a command");
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_USAGE;
    }

    /**
     * Runs the command line and exits the JVM with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(execute(args, System.getenv(), out, err));
    }

    /**
     * Runs the command line without exiting the JVM.
     *
     * @param args the command line; not null
     * @param environment the environment variables to read {@code HOURGLASS_*} from, usually {@code System.getenv()};
     *     not null
     * @param out where the output goes (tables, JSON); flushed before return
     * @param err where errors go; flushed before return
     * @return the exit code, one of the {@code EXIT_*} constants
     */
    public static int execute(String[] args, Map<String, String> environment, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine(environment);
        cli.setOut(out);
        cli.setErr(err);
        try {
            return cli.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Builds the command tree with its exit codes and error handling. */
    static CommandLine commandLine(Map<String, String> environment) {
        CommandLine cli = new CommandLine(new HourglassCli());
        CommandLine completion = new CommandLine(new AutoComplete.GenerateCompletion());
        completion.getCommandSpec().name("completion").usageMessage().hidden(false);
        cli.addSubcommand("completion", completion);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setDefaultValueProvider(new EnvironmentDefaults(environment));
        cli.setExecutionExceptionHandler(HourglassCli::onFailure);
        cli.setParameterExceptionHandler(HourglassCli::onBadUsage);
        return cli;
    }

    /**
     * Connects with the connection options; the caller closes the instance. A command runs no schedule ticker: it lives
     * too short to be one the namespace relies on.
     */
    Hourglass connect() {
        HourglassBuilder builder =
                Hourglass.builder().namespace(namespace).shards(shards).scheduleTicker(false);
        if (tlsTrustedCertificates != null) {
            builder.tlsTrustedCertificates(tlsTrustedCertificates);
        }
        if (cluster != null && !cluster.isEmpty()) {
            builder.clusterNodes(cluster.toArray(String[]::new));
        } else {
            builder.redisUri(redis);
        }
        return builder.build();
    }

    private static int onBadUsage(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        PrintWriter err = cli.getErr();
        err.println("hourglass: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("See '" + cli.getCommandSpec().qualifiedName() + " --help'.");
        return EXIT_USAGE;
    }

    private static int onFailure(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        PrintWriter err = cli.getErr();
        if (e instanceof RedisUnavailableException) {
            err.println("hourglass: Redis cannot be reached: " + e.getMessage());
            return EXIT_REDIS_UNAVAILABLE;
        }
        if (e instanceof Commands.NotFoundException) {
            err.println("hourglass: " + e.getMessage());
            return EXIT_NOT_FOUND;
        }
        if (e instanceof Commands.RefusedException) {
            err.println("hourglass: " + e.getMessage());
            return EXIT_REFUSED;
        }
        if (e instanceof IllegalArgumentException) {
            err.println("hourglass: " + e.getMessage());
            err.println("See '" + cli.getCommandSpec().qualifiedName() + " --help'.");
            return EXIT_USAGE;
        }
        if (e instanceof JobAlreadyExistsException) {
            err.println("hourglass: " + e.getMessage());
            return EXIT_REFUSED;
        }
        if (e instanceof HourglassException) {
            err.println("hourglass: " + e.getMessage());
            return EXIT_FAILURE;
        }
        err.println("hourglass: unexpected failure: " + e);
        e.printStackTrace(err);
        return EXIT_FAILURE;
    }

    /**
     * Reads {@code HOURGLASS_<NAME>} for the connection options from the given environment, so that tests can give one
     * without changing the process's; an absent or blank variable leaves the option's own default.
     */
    static final class EnvironmentDefaults implements IDefaultValueProvider {
        private final Map<String, String> environment;

        EnvironmentDefaults(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
        }

        @Override
        public String defaultValue(ArgSpec argument) {
            if (!(argument instanceof OptionSpec option) || !ENVIRONMENT_OPTIONS.contains(option.longestName())) {
                return null;
            }
            String value = environment.get(variable(option.longestName()));
            return value == null || value.isBlank() ? null : value.trim();
        }

        static String variable(String optionName) {
            return "HOURGLASS_" + optionName.substring(2).replace('-', '_').toUpperCase(Locale.ROOT);
        }
    }

    /** The jar's version, from its manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = HourglassCli.class.getPackage().getImplementationVersion();
            return new String[] {"hourglass-cli " + (version == null ? "(development build)" : version)};
        }
    }
}
