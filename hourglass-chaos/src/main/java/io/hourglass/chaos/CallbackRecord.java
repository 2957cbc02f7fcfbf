package io.hourglass.chaos;

/**
 * A callback the checker's receiver answered: {@code C topic id attempt creatorTry startMs endMs status}.
 *
 * @param topic the job's topic ({@code Hourglass-Topic})
 * @param id the job's id ({@code Hourglass-Job-Id})
 * @param attempt the delivery's attempt ({@code Hourglass-Attempt})
 * @param creatorTry the producer's try whose POST created the job, read from the payload: the POSTs of one job differ
 *     only in it, and the idempotent create keeps the payload of the POST that created the job, so a second value among
 *     one job's callbacks means that a later POST created the job again
 * @param startMs wall time the request arrived
 * @param endMs wall time the answer was written (or writing it failed)
 * @param status the status answered: 200 or 500; 0 when the answer could not be written (the server went away)
 */
record CallbackRecord(String topic, String id, int attempt, int creatorTry, long startMs, long endMs, int status) {

    /** @return whether the receiver answered 2xx, which ends the job once the server acks it */
    boolean succeeded() {
        return status >= 200 && status <= 299;
    }
}
