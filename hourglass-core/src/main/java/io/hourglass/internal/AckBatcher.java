package io.hourglass.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sends acks of one shard to Redis as batches, with no waiting: when no ack call of the shard is in flight an ack
 * goes at once, alone; acks that arrive while one is in flight wait for it and then go together in the next call
 * ("natural batching", as in the LMAX disruptor's smart batching). A lone ack is as fast as ever, and a busy worker
 * pays one round trip and one {@code ack.lua} run per batch instead of one per job, which is what bounds its drain
 * rate (see BENCHMARKS.md, "What limits Hourglass").
 *
 * <p>Thread-safe. Each ack's future completes with its own outcome ({@code OK}, {@code STALE} or
 * {@code MISSING}), or exceptionally with the error of the call that carried it.
 */
final class AckBatcher {
  /** Most acks one call carries, so one script run stays short however many handlers finish at once. */
  static final int MAX_BATCH = 256;

  /** Sends one batch: the ids and receipts, interleaved, of one shard; replies with one outcome per ack. */
  interface Sender {
    CompletableFuture<List<Object>> send(String topic, int shard, List<byte[]> idsAndReceipts);
  }

  private record Pending(byte[] id, byte[] receipt, CompletableFuture<String> outcome) {}

  private static final class Queue {
    final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    boolean inFlight;
  }

  private record ShardKey(String topic, int shard) {}

  private final Sender sender;
  private final Map<ShardKey, Queue> queues = new ConcurrentHashMap<>();

  AckBatcher(Sender sender) {
    this.sender = sender;
  }

  /** Queues an ack; the future completes with its outcome once the call that carries it returns. */
  CompletableFuture<String> ack(String topic, int shard, byte[] id, byte[] receipt) {
    ShardKey key = new ShardKey(topic, shard);
    Queue queue = queues.computeIfAbsent(key, k -> new Queue());
    CompletableFuture<String> outcome = new CompletableFuture<>();
    List<Pending> batch;
    synchronized (queue) {
      queue.waiting.add(new Pending(id, receipt, outcome));
      if (queue.inFlight) {
        return outcome;
      }
      queue.inFlight = true;
      batch = take(queue);
    }
    send(key, queue, batch);
    return outcome;
  }

  private void send(ShardKey key, Queue queue, List<Pending> batch) {
    List<byte[]> args = new ArrayList<>(batch.size() * 2);
    for (Pending p : batch) {
      args.add(p.id());
      args.add(p.receipt());
    }
    CompletableFuture<List<Object>> call;
    try {
      call = sender.send(key.topic(), key.shard(), args);
    } catch (RuntimeException e) {
      call = CompletableFuture.failedFuture(e);
    }
    call.whenComplete((reply, error) -> {
      complete(batch, reply, error);
      List<Pending> next;
      synchronized (queue) {
        if (queue.waiting.isEmpty()) {
          queue.inFlight = false;
          return;
        }
        next = take(queue);
      }
      send(key, queue, next);
    });
  }

  private static List<Pending> take(Queue queue) {
    List<Pending> batch = new ArrayList<>(Math.min(queue.waiting.size(), MAX_BATCH));
    while (batch.size() < MAX_BATCH && !queue.waiting.isEmpty()) {
      batch.add(queue.waiting.poll());
    }
    return batch;
  }

  private static void complete(List<Pending> batch, List<Object> reply, Throwable error) {
    for (int i = 0; i < batch.size(); i++) {
      CompletableFuture<String> outcome = batch.get(i).outcome();
      if (error != null) {
        outcome.completeExceptionally(error);
      } else if (reply == null || i >= reply.size()) {
        outcome.completeExceptionally(new IllegalStateException("ack.lua replied with " + reply + " to "
            + batch.size() + " acks"));
      } else {
        outcome.complete(HourglassClient.str(reply.get(i)));
      }
    }
  }
}
