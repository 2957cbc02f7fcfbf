package io.hourglass;

/**
 * A running consumer of one topic, made by {@link Hourglass#subscribe}. Thread-safe.
 *
 * <p>{@link #close()} stops it gracefully (invariant 10 in ARCHITECTURE.md): it claims nothing more, lets running
 * handlers finish within {@link WorkerOptions#shutdownGrace()}, and hands back at once, without charging an attempt,
 * every job it claimed but did not start, and every job whose handler is still running when the grace period ends (the
 * handler's thread is interrupted).
 */
public interface Worker extends AutoCloseable {

    /** @return the topic this worker consumes; never null */
    String topic();

    /** @return how many handlers are running now */
    int activeCount();

    /** @return false once {@link #close()} has begun */
    boolean isRunning();

    /** Stops gracefully, as described above; blocks up to the grace period. Idempotent. */
    @Override
    void close();
}
