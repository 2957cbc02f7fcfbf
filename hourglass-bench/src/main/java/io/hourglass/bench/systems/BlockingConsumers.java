package io.hourglass.bench.systems;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Consumer threads that each loop on a blocking poll (with a timeout, so they can stop) and hand every message to
 * a handler. Closing stops and joins them.
 */
final class BlockingConsumers implements AutoCloseable {
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  BlockingConsumers(int count, Callable<String> poll, Consumer<String> handler) {
    for (int i = 0; i < count; i++) {
      Thread thread = new Thread(() -> {
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
      }, "bench-consumer-" + i);
      thread.setDaemon(true);
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
