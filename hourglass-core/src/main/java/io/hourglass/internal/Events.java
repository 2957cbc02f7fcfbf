package io.hourglass.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls a user's {@link io.hourglass.JobEvents} method so that its failure cannot disturb the queue. */
final class Events {
    private static final Logger log = LoggerFactory.getLogger(Events.class);

    private Events() {}

    static void notify(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("a JobEvents listener threw; ignored", e);
        }
    }
}
