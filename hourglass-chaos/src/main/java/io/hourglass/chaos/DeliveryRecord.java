package io.hourglass.chaos;

/**
 * A delivery a worker recorded at the start of its handler: {@code D topic id attempt wallMs receipt pid}.
 *
 * @param topic the job's topic
 * @param id the job's id
 * @param attempt the delivery's attempt number
 * @param wallMs wall time the handler started
 * @param receipt the delivery's receipt ({@code lease@<ms>} for in-process handlers, which do not see it)
 * @param pid the worker process
 */
record DeliveryRecord(String topic, String id, int attempt, long wallMs, String receipt, long pid) {}
