package io.hourglass;

/**
 * Thrown by ack, nack and extend when the receipt is not the one of the job's current delivery: the lease ran out and
 * the job was redelivered, reaped, cancelled, rescheduled or replaced, or the job no longer exists. Nothing was
 * changed. This fencing is what keeps a worker whose lease ran out from finishing someone else's delivery (invariant 5
 * in ARCHITECTURE.md).
 */
public class StaleReceiptException extends HourglassException {
    private static final long serialVersionUID = 1L;

    /**
     * @param topic the job's topic
     * @param id the job's id
     * @param receipt the receipt that was refused
     * @param jobExists whether the job still exists (with another delivery, or none)
     */
    public StaleReceiptException(String topic, String id, String receipt, boolean jobExists) {
        super("receipt '" + receipt + "' is not the current delivery of job '" + id + "' in topic '" + topic + "'"
                + (jobExists ? "" : " (the job no longer exists)"));
    }
}
