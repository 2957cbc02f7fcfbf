package io.hourglass.spring.listener;

import io.hourglass.CallbackOptions;
import io.hourglass.Hourglass;
import io.hourglass.Worker;
import io.hourglass.spring.DeferredHourglass;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * POSTs the namespace's callback jobs (those scheduled with a callback URL) while the application context runs:
 * {@link Hourglass#startCallbackDelivery(CallbackOptions)} on start, a graceful {@link Worker#close()} on stop. Enabled
 * with {@code hourglass.callback-delivery.enabled=true}. Thread-safe.
 */
public class HourglassCallbackDelivery implements SmartLifecycle {
    private final Hourglass hourglass;
    private final CallbackOptions options;
    private Worker worker;

    /**
     * @param hourglass the instance; not null
     * @param options concurrency, timeout and content type of the requests; not null
     */
    public HourglassCallbackDelivery(Hourglass hourglass, CallbackOptions options) {
        this.hourglass = Objects.requireNonNull(hourglass, "hourglass");
        this.options = Objects.requireNonNull(options, "options");
    }

    /** Starts delivering; with an instance not connected yet ({@code hourglass.fail-fast=false}), once it connects. */
    @Override
    public void start() {
        DeferredHourglass.whenConnected(hourglass, this::startWorker);
    }

    private synchronized void startWorker() {
        if (worker == null) {
            worker = hourglass.startCallbackDelivery(options);
        }
    }

    @Override
    public void stop() {
        Worker stopping;
        synchronized (this) {
            stopping = worker;
            worker = null;
        }
        if (stopping != null) {
            stopping.close();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return worker != null;
    }

    /** @return the same phase as the listener workers: last to start, first to stop */
    @Override
    public int getPhase() {
        return HourglassListenerContainer.PHASE;
    }

    /** @return the options in use */
    public CallbackOptions options() {
        return options;
    }
}
