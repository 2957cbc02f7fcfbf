package io.hourglass.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The feeder processes of the cold-tier scenario ({@link FeederMain}). Each slot holds one live feeder; a killed feeder
 * is replaced at once by a fresh process (a new generation with a history file of its own).
 */
final class FeederPool implements ProcessGroup, AutoCloseable {
    private final Path dir;
    private final List<String> args;
    private final ChildJvm[] slots;
    private final int[] generations;
    private final List<ChildJvm> all = new ArrayList<>();

    /**
     * @param dir where each feeder's history and console output go
     * @param client the scenario's client settings
     * @param options the run's options ({@link ChaosOptions#tier()})
     * @param database the cold tier's PostgreSQL
     */
    FeederPool(Path dir, ClientSettings client, ChaosOptions options, ColdTierDatabase database) {
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
        this.slots = new ChildJvm[options.tier().feeders()];
        this.generations = new int[slots.length];
    }

    synchronized void startAll() {
        for (int i = 0; i < slots.length; i++) {
            slots[i] = launch(i);
        }
    }

    /** Waits until every feeder of the first generation runs. */
    synchronized void awaitReady(long timeoutMs) throws InterruptedException {
        for (ChildJvm feeder : slots) {
            feeder.awaitOutput(FeederMain.READY, timeoutMs);
        }
    }

    @Override
    public synchronized Fault killAndReplace(int index) {
        Fault fault = slots[index].crash(FaultKind.FEEDER_KILL);
        slots[index] = launch(index);
        return fault;
    }

    @Override
    public synchronized ChildJvm process(int index) {
        return slots[index];
    }

    @Override
    public FaultKind pauseKind() {
        return FaultKind.FEEDER_PAUSE;
    }

    private ChildJvm launch(int index) {
        String name = "feeder-" + index + "-g" + generations[index]++;
        List<String> feederArgs = new ArrayList<>(args);
        feederArgs.addAll(
                List.of("--name", name, "--out", dir.resolve(name + ".history").toString()));
        ChildJvm feeder = ChildJvm.start(name, FeederMain.class, feederArgs, dir.resolve(name + ".console"));
        all.add(feeder);
        return feeder;
    }

    @Override
    public synchronized void close() {
        for (ChildJvm feeder : all) {
            if (feeder.isAlive()) {
                feeder.kill();
            }
        }
    }
}
