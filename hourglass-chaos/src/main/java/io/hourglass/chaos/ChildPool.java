package io.hourglass.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * Child processes of one kind in numbered slots, each holding one live process; a killed process is replaced at once by
 * a fresh one (a new generation, named {@code <kind>-<slot>-g<generation>}, with files of its own), so the capacity
 * stays the same.
 */
abstract class ChildPool implements ProcessGroup, AutoCloseable {
    private final String kind;
    private final String ready;
    private final FaultKind killKind;
    private final FaultKind pauseKind;
    private final ChildJvm[] slots;
    private final int[] generations;
    private final List<ChildJvm> all = new ArrayList<>();

    /**
     * @param kind the processes' name prefix, e.g. {@code worker}
     * @param size slots
     * @param ready what a process prints once it is ready
     * @param killKind the fault a kill of one is
     * @param pauseKind the fault a pause of one is
     */
    ChildPool(String kind, int size, String ready, FaultKind killKind, FaultKind pauseKind) {
        this.kind = kind;
        this.ready = ready;
        this.killKind = killKind;
        this.pauseKind = pauseKind;
        this.slots = new ChildJvm[size];
        this.generations = new int[size];
    }

    /** Starts the process named {@code name} for slot {@code index}. */
    abstract ChildJvm start(int index, String name);

    synchronized void startAll() {
        for (int i = 0; i < slots.length; i++) {
            slots[i] = launch(i);
        }
    }

    /** Waits until every process of the first generation said it is ready. */
    synchronized void awaitReady(long timeoutMs) throws InterruptedException {
        for (ChildJvm child : slots) {
            child.awaitOutput(ready, timeoutMs);
        }
    }

    /** Kills the slot's process with SIGKILL and starts its replacement; returns the fault. */
    @Override
    public synchronized Fault killAndReplace(int index) {
        Fault fault = slots[index].crash(killKind);
        slots[index] = launch(index);
        return fault;
    }

    @Override
    public synchronized ChildJvm process(int index) {
        return slots[index];
    }

    @Override
    public FaultKind pauseKind() {
        return pauseKind;
    }

    private ChildJvm launch(int index) {
        ChildJvm child = start(index, kind + "-" + index + "-g" + generations[index]++);
        all.add(child);
        return child;
    }

    @Override
    public synchronized void close() {
        for (ChildJvm child : all) {
            if (child.isAlive()) {
                child.kill();
            }
        }
    }
}
