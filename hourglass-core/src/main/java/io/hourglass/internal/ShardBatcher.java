package io.hourglass.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gathers the calls of one kind (acks, schedules) made on each shard so that many travel in one script run. Redis
 * spends more on running a script than on the few commands one job needs, so at a high rate one call per job is what
 * bounds throughput (ARCHITECTURE.md, "Lua scripts"). Two ways out, neither of which waits on a clock:
 *
 * <ul>
 *   <li><b>sent as a batch</b> ({@link #submit}, {@link #flush}): when no call of the shard is in flight the queued
 *       items go at once; items that arrive while one is in flight go together in the next call ("natural batching", as
 *       in the LMAX disruptor's smart batching). A lone item is as fast as ever. Once a full batch is waiting it goes
 *       without waiting for the reply, so that Redis runs one batch while the next crosses the network
 *       ({@link #MAX_CALLS_IN_FLIGHT});
 *   <li><b>carried by another call</b>: items queued without sending ({@link #enqueue}) are taken by a call of another
 *       script ({@link #carry}); an in-process worker's next claim carries its acks this way, so a busy worker's acks
 *       and claims are one round trip.
 * </ul>
 *
 * <p>An item is its script arguments; a batch is its items' arguments one after another, and its reply is one outcome
 * per item, in order. Thread-safe. Each item's future completes with its own outcome, or exceptionally with the error
 * of the call that carried it.
 *
 * @param <O> an item's outcome
 */
final class ShardBatcher<O> {
    /** Sends one batch of one shard: its items' arguments, concatenated; replies with one outcome per item. */
    interface Sender<O> {
        CompletableFuture<List<O>> send(String topic, int shard, List<byte[]> arguments);
    }

    /** Items taken by another call: their arguments, and the completion of their outcomes when that call replies. */
    static final class Carried<O> {
        private final List<Pending<O>> items;

        private Carried(List<Pending<O>> items) {
            this.items = items;
        }

        /** Nothing to carry. */
        static <O> Carried<O> none() {
            return new Carried<>(List.of());
        }

        /** The items' arguments, one item after another, in the order the outcomes come back. */
        List<byte[]> arguments() {
            return ShardBatcher.arguments(items);
        }

        /** Completes each item with its outcome in {@code outcomes}, or with {@code error}. */
        void complete(List<O> outcomes, Throwable error) {
            ShardBatcher.complete(items, outcomes, error);
        }
    }

    /** A queued item; {@code bytes} is its arguments' total length, counted once when it is queued. */
    private record Pending<O>(byte[][] arguments, int bytes, CompletableFuture<O> outcome) {
        Pending(byte[][] arguments, CompletableFuture<O> outcome) {
            this(arguments, length(arguments), outcome);
        }

        private static int length(byte[][] arguments) {
            int n = 0;
            for (byte[] a : arguments) {
                n += a.length;
            }
            return n;
        }
    }

    private static final class Queue<O> {
        final ArrayDeque<Pending<O>> waiting = new ArrayDeque<>();
        long waitingBytes;
        int callsInFlight;
    }

    private record ShardKey(String topic, int shard) {}

    /**
     * Most calls of one shard in flight at once. One call at a time left Redis idle after each reply, for a round trip
     * and the encoding of the next batch: 256 schedules in flight took 77-84k jobs/s, and 100-120k with a second call
     * for a full batch. The calls share the shard's connection, so Redis runs them in the order they were sent.
     */
    static final int MAX_CALLS_IN_FLIGHT = 2;

    private final int maxItems;
    private final int maxBytes;
    private final Sender<O> sender;
    private final Map<ShardKey, Queue<O>> queues = new ConcurrentHashMap<>();

    /**
     * @param maxItems most items one call carries, so one script run stays short however many arrive at once
     * @param maxBytes most argument bytes one call carries, unless its first item alone is larger
     * @param sender sends a batch
     */
    ShardBatcher(int maxItems, int maxBytes, Sender<O> sender) {
        this.maxItems = maxItems;
        this.maxBytes = maxBytes;
        this.sender = sender;
    }

    /** Queues an item and {@link #flush flushes} its shard: it goes now, or with the next call of the shard. */
    CompletableFuture<O> submit(String topic, int shard, byte[]... arguments) {
        CompletableFuture<O> outcome = enqueue(topic, shard, arguments);
        flush(topic, shard);
        return outcome;
    }

    /** Queues an item without sending it: another call may {@link #carry} it, else a {@link #flush} sends it. */
    CompletableFuture<O> enqueue(String topic, int shard, byte[]... arguments) {
        Queue<O> queue = queues.computeIfAbsent(new ShardKey(topic, shard), k -> new Queue<>());
        CompletableFuture<O> outcome = new CompletableFuture<>();
        Pending<O> item = new Pending<>(arguments, outcome);
        synchronized (queue) {
            queue.waiting.add(item);
            queue.waitingBytes += item.bytes();
        }
        return outcome;
    }

    /**
     * Sends the shard's queued items now, unless a call of the shard is in flight and they do not fill a batch, or
     * {@link #MAX_CALLS_IN_FLIGHT} calls are; then the return of a call sends them.
     */
    void flush(String topic, int shard) {
        ShardKey key = new ShardKey(topic, shard);
        Queue<O> queue = queues.get(key);
        if (queue == null) {
            return;
        }
        List<Pending<O>> batch;
        synchronized (queue) {
            batch = takeIfMaySend(queue);
            if (batch == null) {
                return;
            }
        }
        send(key, queue, batch);
    }

    /** Takes up to one batch of the shard's queued items for another call to carry. */
    Carried<O> carry(String topic, int shard) {
        Queue<O> queue = queues.get(new ShardKey(topic, shard));
        if (queue == null) {
            return Carried.none();
        }
        synchronized (queue) {
            return queue.waiting.isEmpty() ? Carried.none() : new Carried<>(take(queue));
        }
    }

    private void send(ShardKey key, Queue<O> queue, List<Pending<O>> batch) {
        CompletableFuture<List<O>> call;
        try {
            call = sender.send(key.topic(), key.shard(), arguments(batch));
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((reply, error) -> {
            List<Pending<O>> next;
            synchronized (queue) {
                queue.callsInFlight--;
                next = takeIfMaySend(queue);
            }
            // The next batch goes before this one's outcomes complete: their callbacks may run for a while.
            if (next != null) {
                send(key, queue, next);
            }
            complete(batch, reply, error);
        });
    }

    /**
     * Takes the next batch and counts its call as in flight, if one may go now: when no call of the shard is in flight,
     * or fewer than {@link #MAX_CALLS_IN_FLIGHT} and a full batch is waiting. Else null. The caller holds
     * {@code queue}'s lock.
     */
    private List<Pending<O>> takeIfMaySend(Queue<O> queue) {
        if (queue.waiting.isEmpty() || queue.callsInFlight >= MAX_CALLS_IN_FLIGHT) {
            return null;
        }
        if (queue.callsInFlight > 0 && queue.waiting.size() < maxItems && queue.waitingBytes < maxBytes) {
            return null;
        }
        queue.callsInFlight++;
        return take(queue);
    }

    private List<Pending<O>> take(Queue<O> queue) {
        List<Pending<O>> batch = new ArrayList<>(Math.min(queue.waiting.size(), maxItems));
        int bytes = 0;
        while (batch.size() < maxItems && !queue.waiting.isEmpty()) {
            int next = queue.waiting.peek().bytes();
            if (!batch.isEmpty() && bytes + next > maxBytes) {
                break;
            }
            batch.add(queue.waiting.poll());
            bytes += next;
        }
        queue.waitingBytes -= bytes;
        return batch;
    }

    private static <O> List<byte[]> arguments(List<Pending<O>> batch) {
        List<byte[]> args = new ArrayList<>(
                batch.isEmpty() ? 0 : batch.size() * batch.get(0).arguments().length);
        for (Pending<O> p : batch) {
            Collections.addAll(args, p.arguments());
        }
        return args;
    }

    private static <O> void complete(List<Pending<O>> batch, List<O> outcomes, Throwable error) {
        for (int i = 0; i < batch.size(); i++) {
            CompletableFuture<O> outcome = batch.get(i).outcome();
            if (error != null) {
                outcome.completeExceptionally(error);
            } else if (outcomes == null || i >= outcomes.size()) {
                outcome.completeExceptionally(
                        new IllegalStateException("Redis replied with " + outcomes + " to " + batch.size() + " items"));
            } else {
                outcome.complete(outcomes.get(i));
            }
        }
    }
}
