package io.hourglass.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gathers the acks of each shard so that many travel in one script run. Redis spends more on running a script
 * than on the few commands of one ack, so at a high delivery rate one call per ack is what bounds the drain (see
 * BENCHMARKS.md, "What limits Hourglass"). Two ways out, neither of which waits on a clock:
 * <ul>
 *   <li><b>carried by a claim</b>: an in-process worker queues its acks ({@link #enqueue}) and its next claim of
 *       the shard takes them ({@link #carry}) into {@code claim.lua}, so a busy worker's acks and claims are one
 *       round trip;
 *   <li><b>sent as a batch</b> ({@link #flush}, {@link #ack}): when no ack call of the shard is in flight the
 *       queued acks go at once, in {@code ack.lua}; acks that arrive while one is in flight go together in the
 *       next call ("natural batching", as in the LMAX disruptor's smart batching). A lone ack is as fast as ever.
 * </ul>
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

  /** Acks taken by a claim: their arguments, and the completion of their outcomes when the claim replies. */
  static final class Carried {
    /** Nothing to carry. */
    static final Carried NONE = new Carried(List.of());

    private final List<Pending> acks;

    private Carried(List<Pending> acks) {
      this.acks = acks;
    }

    /** The ids and receipts, interleaved, in the order the outcomes come back. */
    List<byte[]> idsAndReceipts() {
      return arguments(acks);
    }

    /** Completes each ack with its outcome in {@code outcomes}, or with {@code error}. */
    void complete(List<Object> outcomes, Throwable error) {
      AckBatcher.complete(acks, outcomes, error);
    }
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

  /** Queues an ack and sends it unless an ack call of its shard is in flight (then it goes with the next). */
  CompletableFuture<String> ack(String topic, int shard, byte[] id, byte[] receipt) {
    CompletableFuture<String> outcome = enqueue(topic, shard, id, receipt);
    flush(topic, shard);
    return outcome;
  }

  /** Queues an ack without sending it: a claim may {@link #carry} it, else a {@link #flush} sends it. */
  CompletableFuture<String> enqueue(String topic, int shard, byte[] id, byte[] receipt) {
    Queue queue = queues.computeIfAbsent(new ShardKey(topic, shard), k -> new Queue());
    CompletableFuture<String> outcome = new CompletableFuture<>();
    synchronized (queue) {
      queue.waiting.add(new Pending(id, receipt, outcome));
    }
    return outcome;
  }

  /** Sends the shard's queued acks now, unless an ack call of the shard is in flight (its return sends them). */
  void flush(String topic, int shard) {
    ShardKey key = new ShardKey(topic, shard);
    Queue queue = queues.get(key);
    if (queue == null) {
      return;
    }
    List<Pending> batch;
    synchronized (queue) {
      if (queue.inFlight || queue.waiting.isEmpty()) {
        return;
      }
      queue.inFlight = true;
      batch = take(queue);
    }
    send(key, queue, batch);
  }

  /** Takes up to {@link #MAX_BATCH} of the shard's queued acks for a claim to carry. */
  Carried carry(String topic, int shard) {
    Queue queue = queues.get(new ShardKey(topic, shard));
    if (queue == null) {
      return Carried.NONE;
    }
    synchronized (queue) {
      return queue.waiting.isEmpty() ? Carried.NONE : new Carried(take(queue));
    }
  }

  private void send(ShardKey key, Queue queue, List<Pending> batch) {
    CompletableFuture<List<Object>> call;
    try {
      call = sender.send(key.topic(), key.shard(), arguments(batch));
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

  private static List<byte[]> arguments(List<Pending> batch) {
    List<byte[]> args = new ArrayList<>(batch.size() * 2);
    for (Pending p : batch) {
      args.add(p.id());
      args.add(p.receipt());
    }
    return args;
  }

  private static void complete(List<Pending> batch, List<Object> outcomes, Throwable error) {
    for (int i = 0; i < batch.size(); i++) {
      CompletableFuture<String> outcome = batch.get(i).outcome();
      if (error != null) {
        outcome.completeExceptionally(error);
      } else if (outcomes == null || i >= outcomes.size()) {
        outcome.completeExceptionally(new IllegalStateException("Redis replied with " + outcomes + " to "
            + batch.size() + " acks"));
      } else {
        outcome.complete(HourglassClient.str(outcomes.get(i)));
      }
    }
  }
}
