package io.hourglass;

/**
 * Runs jobs of one topic. Called on a worker thread, at most {@link WorkerOptions#concurrency()} at once per worker.
 * Returning normally acks the job; throwing nacks it, and the job is retried after its backoff or, when its attempts
 * are exhausted, goes to the dead letters with the exception as its last error. A handler that runs past
 * {@link WorkerOptions#handlerTimeout()} is interrupted and nacked.
 *
 * <p>Delivery is at least once: a handler must tolerate seeing the same job again (after a crash, a lost ack or an
 * expired lease), e.g. by making its effect idempotent.
 */
@FunctionalInterface
public interface JobHandler {

    /**
     * @param job the delivery; valid only during this call
     * @throws Exception to have the job retried
     */
    void handle(Job job) throws Exception;
}
