package io.hourglass.bench.systems;

import io.hourglass.HandlerThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * Consumer threads that each loop on a blocking poll (with a timeout, so they can stop) and hand every message to a
 * handler: platform daemon threads, or virtual threads made as Hourglass makes its handlers'. Closing stops and joins
 * them.
 */
final class BlockingConsumers implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    BlockingConsumers(int count, boolean virtualThreads, Callable<String> poll, Consumer<String> handler) {
        ThreadFactory factory = HandlerThreads.factory("bench-consumer", virtualThreads);
        for (int i = 0; i < count; i++) {
            Thread thread = factory.newThread(() -> {
                while (running) {
                    try {
                        String message = poll.call();
                        if (message != null) {
                            handler.accept(message);
                        }
                    } catch (Exception e) {
                        if (running) {
                            System.err.println("consumer: " + e);
                        }
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            thread.join(5000);
        }
    }
}
