package io.hourglass.internal;

import io.hourglass.Job;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** One delivery handed to a handler. {@link #finish()} makes exactly one of ack, nack and hand-back happen. */
final class JobContext implements Job {
    private final Leases leases;
    private final String topic;
    private final int shard;
    private final String id;
    private final JobRecord record;
    private final String receipt;
    private final int attempt;
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile Instant leaseUntil;
    private volatile Thread thread;
    /** The next automatic extension of the lease ({@link JobRunner}), or null. */
    private volatile ScheduledFuture<?> leaseKeeper;

    JobContext(Leases leases, String topic, int shard, ClaimBatch.Claimed claimed) {
        this.leases = leases;
        this.topic = topic;
        this.shard = shard;
        this.id = claimed.id();
        this.record = claimed.record();
        this.receipt = claimed.receipt();
        this.attempt = claimed.attempt();
        this.leaseUntil = Instant.ofEpochMilli(claimed.leaseUntilMs());
    }

    JobRecord record() {
        return record;
    }

    String receipt() {
        return receipt;
    }

    /** The shard the job was claimed from. */
    int shard() {
        return shard;
    }

    /** True for the first caller only: the one that may finish this delivery. */
    boolean finish() {
        return finished.compareAndSet(false, true);
    }

    /** Whether the delivery was ended (or is being ended) by ack, nack or hand-back. */
    boolean isFinished() {
        return finished.get();
    }

    void keepLease(ScheduledFuture<?> next) {
        leaseKeeper = next;
    }

    /** Cancels the next automatic extension; the caller finished the delivery, so none is scheduled after it. */
    void stopKeepingLease() {
        ScheduledFuture<?> next = leaseKeeper;
        if (next != null) {
            next.cancel(false);
        }
    }

    /** Records a deadline that an automatic extension set, unless the handler extended further meanwhile. */
    synchronized void leaseExtendedTo(Instant until) {
        if (until.isAfter(leaseUntil)) {
            leaseUntil = until;
        }
    }

    void bindThread(Thread t) {
        this.thread = t;
    }

    void interruptThread() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String topic() {
        return topic;
    }

    @Override
    public byte[] payload() {
        return record.payload();
    }

    @Override
    public String payloadAsString() {
        return new String(record.payload(), StandardCharsets.UTF_8);
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public int maxAttempts() {
        return record.maxAttempts();
    }

    @Override
    public Instant dueAt() {
        return Instant.ofEpochMilli(record.dueMs());
    }

    @Override
    public Instant originalDueAt() {
        return Instant.ofEpochMilli(record.originalDueMs());
    }

    @Override
    public URI callbackUrl() {
        return record.callbackUri();
    }

    @Override
    public Instant leaseUntil() {
        return leaseUntil;
    }

    @Override
    public Instant extendLease(Duration lease) {
        Instant until = leases.extend(topic, id, receipt, lease);
        synchronized (this) {
            leaseUntil = until;
        }
        return until;
    }

    @Override
    public String toString() {
        return "Job[" + topic + "/" + id + ", attempt " + attempt + "]";
    }
}
