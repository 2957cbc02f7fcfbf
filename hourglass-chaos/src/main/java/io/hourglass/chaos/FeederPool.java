package io.hourglass.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The feeder processes of the cold-tier scenario ({@link FeederMain}); a killed feeder is replaced at once by a fresh
 * process (a new generation with a history file of its own).
 */
final class FeederPool extends ChildPool {
    private final Path dir;
    private final List<String> args;

    /**
     * @param dir where each feeder's history and console output go
     * @param client the scenario's client settings
     * @param options the run's options ({@link ChaosOptions#tier()})
     * @param database the cold tier's PostgreSQL
     */
    FeederPool(Path dir, ClientSettings client, ChaosOptions options, ColdTierDatabase database) {
        super("feeder", options.tier().feeders(), FeederMain.READY, FaultKind.FEEDER_KILL, FaultKind.FEEDER_PAUSE);
        this.dir = dir;
        List<String> common = new ArrayList<>(List.of(client.toArgs()));
        common.addAll(List.of(
                "--jdbc-url",
                database.jdbcUrl(),
                "--jdbc-user",
                database.user(),
                "--horizon-ms",
                Long.toString(options.tier().horizonMs()),
                "--lead-time-ms",
                Long.toString(options.tier().leadTimeMs())));
        this.args = List.copyOf(common);
    }

    @Override
    ChildJvm start(int index, String name) {
        List<String> feederArgs = new ArrayList<>(args);
        feederArgs.addAll(
                List.of("--name", name, "--out", dir.resolve(name + ".history").toString()));
        return ChildJvm.start(name, FeederMain.class, feederArgs, dir.resolve(name + ".console"));
    }
}
