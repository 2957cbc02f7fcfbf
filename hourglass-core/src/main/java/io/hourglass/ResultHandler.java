package io.hourglass;

/**
 * Runs jobs of one topic and returns each job's result; wrap it with {@link JobHandler#returning} to subscribe. Called
 * as a {@link JobHandler} is: returning acks the job, throwing nacks it. The result is kept with the acked job while
 * its topic keeps completed jobs ({@link HourglassBuilder#completedRetention(String, java.time.Duration)}), and dropped
 * otherwise.
 */
@FunctionalInterface
public interface ResultHandler {

    /**
     * @param job the delivery; valid only during this call
     * @return the job's result, at most {@link Hourglass#MAX_RESULT_BYTES} bytes (a longer one nacks the job), or null
     *     for none
     * @throws Exception to have the job retried
     */
    byte[] handle(Job job) throws Exception;
}
