package io.hourglass.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker processes of a scenario. Each slot holds one live worker; a killed worker is replaced at once by a fresh
 * process (a new generation with a history file of its own), so the capacity stays the same.
 */
final class WorkerPool implements ProcessGroup, AutoCloseable {
    private final Path dir;
    private final ClientSettings client;
    private final ChaosOptions options;
    private final ChildJvm[] slots;
    private final int[] generations;
    private final List<ChildJvm> all = new ArrayList<>();

    WorkerPool(Path dir, ClientSettings client, ChaosOptions options) {
        this.dir = dir;
        this.client = client;
        this.options = options;
        this.slots = new ChildJvm[options.workers()];
        this.generations = new int[options.workers()];
    }

    synchronized void startAll() {
        for (int i = 0; i < slots.length; i++) {
            slots[i] = launch(i);
        }
    }

    /** Waits until every worker of the first generation said it consumes every topic. */
    synchronized void awaitReady(long timeoutMs) throws InterruptedException {
        for (ChildJvm worker : slots) {
            worker.awaitOutput(WorkerMain.READY, timeoutMs);
        }
    }

    /** Kills the slot's worker with SIGKILL and starts its replacement; returns the fault. */
    @Override
    public synchronized Fault killAndReplace(int index) {
        Fault fault = slots[index].crash(FaultKind.WORKER_KILL);
        slots[index] = launch(index);
        return fault;
    }

    @Override
    public synchronized ChildJvm process(int index) {
        return slots[index];
    }

    @Override
    public FaultKind pauseKind() {
        return FaultKind.WORKER_PAUSE;
    }

    private ChildJvm launch(int index) {
        int generation = generations[index]++;
        String name = "worker-" + index + "-g" + generation;
        List<String> args = new ArrayList<>(List.of(client.toArgs()));
        args.addAll(List.of(
                "--topics",
                Integer.toString(options.topics()),
                "--concurrency",
                Integer.toString(options.concurrency()),
                "--mode",
                index % 2 == 0 ? "subscribe" : "pull",
                "--handler-ms",
                Long.toString(options.handlerMs()),
                "--out",
                dir.resolve(name + ".history").toString()));
        ChildJvm worker = ChildJvm.start(name, WorkerMain.class, args, dir.resolve(name + ".console"));
        all.add(worker);
        return worker;
    }

    @Override
    public synchronized void close() {
        for (ChildJvm worker : all) {
            if (worker.isAlive()) {
                worker.kill();
            }
        }
    }
}
