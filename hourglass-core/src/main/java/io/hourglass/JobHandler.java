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

    /**
     * Runs the job and returns its result, which is kept with the job when its topic keeps completed jobs
     * ({@link HourglassBuilder#completedRetention(String, java.time.Duration)}). The workers call this method; by
     * default it runs {@link #handle} and returns no result. Handlers built with {@link #returning} return theirs.
     *
     * @param job the delivery; valid only during this call
     * @return the result, at most {@link Hourglass#MAX_RESULT_BYTES} bytes, or null for none
     * @throws Exception to have the job retried
     */
    default byte[] handleForResult(Job job) throws Exception {
        handle(job);
        return null;
    }

    /**
     * A handler whose return value is the job's result: {@code JobHandler.returning(job -> bytes)}. A distinct method
     * rather than an overload of {@code subscribe}, so that existing lambdas stay unambiguous.
     *
     * @param handler runs each job and returns its result (null for none); not null
     * @return a handler for {@link Hourglass#subscribe}
     * @throws NullPointerException when {@code handler} is null
     */
    static JobHandler returning(ResultHandler handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        return new JobHandler() {
            @Override
            public void handle(Job job) throws Exception {
                handler.handle(job);
            }

            @Override
            public byte[] handleForResult(Job job) throws Exception {
                return handler.handle(job);
            }
        };
    }
}
