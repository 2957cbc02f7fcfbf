package io.hourglass.bench.systems;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Issues asynchronous calls from a number of threads, each keeping at most a fixed number outstanding, and returns once
 * every call has completed. The first failure is rethrown.
 */
public final class AsyncLoad {
    private AsyncLoad() {}

    /**
     * @param count calls in all; thread {@code t} makes calls {@code t, t + threads, ...}
     * @param threads producer threads
     * @param inFlight outstanding calls per thread
     * @param call makes call {@code i}
     * @throws Exception the first failure of a call
     */
    public static void run(int count, int threads, int inFlight, IntFunction<CompletionStage<?>> call)
            throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            Thread producer = new Thread(
                    () -> {
                        Semaphore slots = new Semaphore(inFlight);
                        try {
                            for (int i = first; i < count && failure.get() == null; i += threads) {
                                slots.acquire();
                                call.apply(i).whenComplete((r, e) -> {
                                    if (e != null) {
                                        failure.compareAndSet(null, e);
                                    }
                                    slots.release();
                                });
                            }
                            slots.acquire(inFlight);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            failure.compareAndSet(null, e);
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                        }
                    },
                    "bench-producer-" + t);
            producer.start();
            producers.add(producer);
        }
        for (Thread producer : producers) {
            producer.join();
        }
        Throwable e = failure.get();
        if (e instanceof Exception ex) {
            throw ex;
        }
        if (e != null) {
            throw new IllegalStateException(e);
        }
    }
}
