package io.hourglass.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker processes of a scenario ({@link WorkerMain}); a killed worker is replaced at once by a fresh process (a
 * new generation with a history file of its own), so the capacity stays the same.
 */
final class WorkerPool extends ChildPool {
    private final Path dir;
    private final ClientSettings client;
    private final ChaosOptions options;

    WorkerPool(Path dir, ClientSettings client, ChaosOptions options) {
        super("worker", options.workers(), WorkerMain.READY, FaultKind.WORKER_KILL, FaultKind.WORKER_PAUSE);
        this.dir = dir;
        this.client = client;
        this.options = options;
    }

    @Override
    ChildJvm start(int index, String name) {
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
        return ChildJvm.start(name, WorkerMain.class, args, dir.resolve(name + ".console"));
    }
}
