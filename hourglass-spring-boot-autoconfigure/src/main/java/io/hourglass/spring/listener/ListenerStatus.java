package io.hourglass.spring.listener;

import io.hourglass.WorkerOptions;
import java.time.Instant;

/**
 * A snapshot of one {@link io.hourglass.spring.HourglassListener} method's worker, as the health check reads it.
 *
 * @param topic the topic it consumes; never null
 * @param method the method and its bean, for people; never null
 * @param running whether its worker runs
 * @param options its options: the annotation's attributes over the {@code hourglass.listener.*} defaults; never null
 * @param activeCount how many jobs it handles now
 * @param lastDeliveryAt when it last started a job (this machine's clock), or null if never
 */
public record ListenerStatus(
        String topic, String method, boolean running, WorkerOptions options, int activeCount, Instant lastDeliveryAt) {

    /** @return how many jobs it may handle at once */
    public int concurrency() {
        return options.concurrency();
    }

    /** @return whether the worker runs and has a free handler slot */
    public boolean hasFreeSlots() {
        return running && activeCount < options.concurrency();
    }
}
