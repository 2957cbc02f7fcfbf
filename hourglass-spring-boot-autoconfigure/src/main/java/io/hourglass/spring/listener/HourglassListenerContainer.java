package io.hourglass.spring.listener;

import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.JobHandler;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.hourglass.spring.DeferredHourglass;
import io.hourglass.spring.PayloadConverter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the {@link io.hourglass.spring.HourglassListener} methods: one {@link Worker} per method, started when the
 * application context has been refreshed and stopped gracefully with it ({@link SmartLifecycle}).
 *
 * <p>When all singletons exist, it checks every method's options and payload type, so a problem fails the start-up
 * before any worker runs. On stop, every worker is closed in parallel: no new claims, running invocations may finish
 * within their shutdown grace, claimed jobs that did not start are handed back without charging an attempt. Spring
 * waits for this up to {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by default); the default shutdown
 * grace ({@link ListenerDefaults#DEFAULT_SHUTDOWN_GRACE}, 20 s) stays below it, and a longer grace is warned about at
 * start-up.
 *
 * <p>Stops in the first shutdown phase ({@link #PHASE}), while the beans listener methods use still work. Thread-safe.
 */
public class HourglassListenerContainer implements SmartLifecycle, SmartInitializingSingleton {
    /** The lifecycle phase: the last to start and the first to stop. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE;

    private static final Logger log = LoggerFactory.getLogger(HourglassListenerContainer.class);

    private final Hourglass hourglass;
    private final HourglassListenerRegistrar registrar;
    private final PayloadConverter payloads;
    private final ListenerDefaults defaults;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private boolean running;

    /**
     * @param hourglass the instance the workers subscribe with; not null
     * @param registrar where the listener methods were found; not null
     * @param payloads converts payloads to the methods' parameter types; not null
     * @param defaults options for what the annotations leave empty; not null
     */
    public HourglassListenerContainer(
            Hourglass hourglass,
            HourglassListenerRegistrar registrar,
            PayloadConverter payloads,
            ListenerDefaults defaults) {
        this.hourglass = Objects.requireNonNull(hourglass, "hourglass");
        this.registrar = Objects.requireNonNull(registrar, "registrar");
        this.payloads = Objects.requireNonNull(payloads, "payloads");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
    }

    /**
     * Checks every listener method's options and payload type.
     *
     * @throws IllegalStateException naming the method, for an option out of range or a payload type no codec reads
     */
    @Override
    public synchronized void afterSingletonsInstantiated() {
        Map<String, ListenerMethod> firstOfTopic = new HashMap<>();
        for (ListenerMethod method : registrar.close()) {
            ListenerMethod first = firstOfTopic.putIfAbsent(method.topic(), method);
            if (first != null) {
                log.warn(
                        "Two @HourglassListener methods consume topic '{}': {} and {}; each job goes to one of them, "
                                + "whichever claims it first. Give them different topics unless they do the same work",
                        method.topic(),
                        first.description(),
                        method.description());
            }
            WorkerOptions options = method.options(defaults);
            if (method.payloadType() != null && !payloads.canConvert(method.payloadType())) {
                throw new IllegalStateException("Invalid @HourglassListener method " + method.description() + ": no"
                        + " HourglassPayloadCodec can read its payload type "
                        + method.payloadType().getTypeName() + "; add"
                        + " Jackson (spring-boot-starter-json) or an HourglassPayloadCodec bean, or take"
                        + " String or byte[]");
            }
            if (method.resultType() != null && !payloads.canConvert(method.resultType())) {
                throw new IllegalStateException("Invalid @HourglassListener method " + method.description() + ": no"
                        + " HourglassPayloadCodec can write its return type "
                        + method.resultType().getTypeName()
                        + " as the job's result; add Jackson (spring-boot-starter-json) or an HourglassPayloadCodec"
                        + " bean, or return String, byte[] or void");
            }
            endpoints.add(new Endpoint(method, options, method.handler(payloads)));
        }
        if (!defaults.autoStartup() && !endpoints.isEmpty()) {
            log.info(
                    "hourglass.listener.auto-startup=false: the @HourglassListener methods of topics {} are not"
                            + " started; start them with ConfigurableApplicationContext.start() or"
                            + " HourglassListenerContainer.start()",
                    firstOfTopic.keySet().stream().sorted().toList());
        }
    }

    /**
     * Starts one worker per listener method; if one cannot start, stops those started and rethrows. With an instance
     * not connected yet ({@code hourglass.fail-fast=false}), the workers start when it connects.
     */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        DeferredHourglass.whenConnected(hourglass, this::startWorkers);
    }

    private synchronized void startWorkers() {
        if (!running) {
            return;
        }
        try {
            for (Endpoint endpoint : endpoints) {
                endpoint.start();
                log.info(
                        "Hourglass listener {} consumes topic '{}' with {}",
                        endpoint.method.description(),
                        endpoint.method.topic(),
                        endpoint.options);
            }
        } catch (RuntimeException e) {
            closeAll();
            running = false;
            throw e;
        }
    }

    /** Stops every worker gracefully and returns when all have stopped. */
    @Override
    public void stop() {
        stopAsync().join();
    }

    /**
     * Stops every worker gracefully, in parallel, and runs {@code callback} when all have stopped.
     *
     * @param callback told when stopping is done
     */
    @Override
    public void stop(Runnable callback) {
        stopAsync().whenComplete((ignored, error) -> callback.run());
    }

    private synchronized CompletableFuture<Void> stopAsync() {
        running = false;
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            Worker worker = endpoint.worker;
            endpoint.worker = null;
            if (worker != null) {
                CompletableFuture<Void> closed = new CompletableFuture<>();
                Thread thread = new Thread(
                        () -> {
                            try {
                                worker.close();
                                closed.complete(null);
                            } catch (Throwable t) {
                                log.warn(
                                        "Hourglass listener {} did not stop cleanly", endpoint.method.description(), t);
                                closed.complete(null);
                            }
                        },
                        "hourglass-listener-stop-" + endpoint.method.topic());
                thread.setDaemon(true);
                thread.start();
                closing.add(closed);
            }
        }
        return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
    }

    private void closeAll() {
        for (Endpoint endpoint : endpoints) {
            if (endpoint.worker != null) {
                endpoint.worker.close();
                endpoint.worker = null;
            }
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    /** @return {@code hourglass.listener.auto-startup} */
    @Override
    public boolean isAutoStartup() {
        return defaults.autoStartup();
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** @return one snapshot per listener method, in registration order */
    public synchronized List<ListenerStatus> listeners() {
        List<ListenerStatus> statuses = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            Worker worker = endpoint.worker;
            boolean up = worker != null && worker.isRunning();
            statuses.add(new ListenerStatus(
                    endpoint.method.topic(),
                    endpoint.method.description(),
                    up,
                    endpoint.options,
                    up ? worker.activeCount() : 0,
                    endpoint.lastDeliveryAt));
        }
        return statuses;
    }

    /** One listener method, its options and its running worker. */
    private final class Endpoint {
        final ListenerMethod method;
        final WorkerOptions options;
        final JobHandler handler;
        volatile Worker worker;
        volatile Instant lastDeliveryAt;

        Endpoint(ListenerMethod method, WorkerOptions options, JobHandler handler) {
            this.method = method;
            this.options = options;
            this.handler = handler;
        }

        void start() {
            if (worker == null) {
                worker = hourglass.subscribe(method.topic(), JobHandler.returning(this::handle), options);
            }
        }

        private byte[] handle(Job job) throws Exception {
            lastDeliveryAt = Instant.now();
            return handler.handleForResult(job);
        }
    }
}
