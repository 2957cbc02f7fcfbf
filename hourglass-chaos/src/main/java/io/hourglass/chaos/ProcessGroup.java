package io.hourglass.chaos;

/** The processes of a scenario that faults hit one at a time: its workers, or its servers. */
interface ProcessGroup {

    /** SIGKILL of the process in slot {@code index}, and a fresh one in its place; returns the fault. */
    Fault killAndReplace(int index) throws Exception;

    /** @return the live process in slot {@code index} */
    ChildJvm process(int index);

    /** @return the kind of fault a pause of one of these processes is */
    FaultKind pauseKind();

    /** SIGSTOP of the process in slot {@code index} for {@code durationMs}, then SIGCONT; returns the fault. */
    default Fault pause(int index, long durationMs) throws InterruptedException {
        return process(index).pauseFor(pauseKind(), durationMs);
    }
}
