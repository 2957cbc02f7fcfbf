package io.hourglass;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Worker} runs its handler. Immutable and thread-safe; start from {@link #defaults()} or
 * {@link #builder()}, change a copy with {@link #mutate()}.
 */
public final class WorkerOptions {
  /** Handlers running at once per worker: {@value}. */
  public static final int DEFAULT_CONCURRENCY = 8;
  /** Most jobs fetched by one claim: {@value}. A claim never takes more than the free handler slots. */
  public static final int DEFAULT_MAX_BATCH = 64;
  /** How long {@link Worker#close()} lets running handlers finish: 30 s. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);

  private static final WorkerOptions DEFAULTS = builder().build();

  private final int concurrency;
  private final int maxBatch;
  private final Duration handlerTimeout;
  private final Duration shutdownGrace;

  private WorkerOptions(Builder b) {
    this.concurrency = b.concurrency;
    this.maxBatch = b.maxBatch;
    this.handlerTimeout = b.handlerTimeout;
    this.shutdownGrace = b.shutdownGrace;
  }

  /** @return the default options */
  public static WorkerOptions defaults() {
    return DEFAULTS;
  }

  /** @return a builder holding the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return a builder holding these options */
  public Builder mutate() {
    Builder b = new Builder();
    b.concurrency = concurrency;
    b.maxBatch = maxBatch;
    b.handlerTimeout = handlerTimeout;
    b.shutdownGrace = shutdownGrace;
    return b;
  }

  /** @return handlers running at once, at least 1 */
  public int concurrency() {
    return concurrency;
  }

  /** @return most jobs fetched by one claim, at least 1 */
  public int maxBatch() {
    return maxBatch;
  }

  /** @return how long a handler may run before it is interrupted and nacked, or null for no limit */
  public Duration handlerTimeout() {
    return handlerTimeout;
  }

  /** @return how long {@link Worker#close()} waits for running handlers; never null */
  public Duration shutdownGrace() {
    return shutdownGrace;
  }

  /** Builds {@link WorkerOptions}; not thread-safe. */
  public static final class Builder {
    private int concurrency = DEFAULT_CONCURRENCY;
    private int maxBatch = DEFAULT_MAX_BATCH;
    private Duration handlerTimeout;
    private Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;

    private Builder() {}

    /**
     * @param concurrency handlers running at once, 1 to 10000
     * @return this builder
     * @throws IllegalArgumentException naming {@code concurrency} when out of range
     */
    public Builder concurrency(int concurrency) {
      if (concurrency < 1 || concurrency > 10_000) {
        throw new IllegalArgumentException("concurrency: must be between 1 and 10000, got " + concurrency);
      }
      this.concurrency = concurrency;
      return this;
    }

    /**
     * @param maxBatch most jobs fetched by one claim, 1 to 1000
     * @return this builder
     * @throws IllegalArgumentException naming {@code maxBatch} when out of range
     */
    public Builder maxBatch(int maxBatch) {
      if (maxBatch < 1 || maxBatch > 1000) {
        throw new IllegalArgumentException("maxBatch: must be between 1 and 1000, got " + maxBatch);
      }
      this.maxBatch = maxBatch;
      return this;
    }

    /**
     * @param handlerTimeout how long a handler may run before its thread is interrupted and the job nacked;
     *     positive, or null for no limit
     * @return this builder
     * @throws IllegalArgumentException naming {@code handlerTimeout} when zero or negative
     */
    public Builder handlerTimeout(Duration handlerTimeout) {
      if (handlerTimeout != null && (handlerTimeout.isNegative() || handlerTimeout.isZero())) {
        throw new IllegalArgumentException("handlerTimeout: must be positive, got " + handlerTimeout);
      }
      this.handlerTimeout = handlerTimeout;
      return this;
    }

    /**
     * @param shutdownGrace how long {@link Worker#close()} waits for running handlers; zero or positive
     * @return this builder
     * @throws IllegalArgumentException naming {@code shutdownGrace} when negative or null
     */
    public Builder shutdownGrace(Duration shutdownGrace) {
      if (shutdownGrace == null || shutdownGrace.isNegative()) {
        throw new IllegalArgumentException("shutdownGrace: must be zero or positive, got " + shutdownGrace);
      }
      this.shutdownGrace = shutdownGrace;
      return this;
    }

    /** @return the options */
    public WorkerOptions build() {
      return new WorkerOptions(this);
    }
  }

  @Override
  public String toString() {
    return "WorkerOptions[concurrency=" + concurrency + ", maxBatch=" + maxBatch + ", handlerTimeout="
        + handlerTimeout + ", shutdownGrace=" + shutdownGrace + "]";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WorkerOptions)) {
      return false;
    }
    WorkerOptions w = (WorkerOptions) o;
    return concurrency == w.concurrency && maxBatch == w.maxBatch
        && Objects.equals(handlerTimeout, w.handlerTimeout) && shutdownGrace.equals(w.shutdownGrace);
  }

  @Override
  public int hashCode() {
    return Objects.hash(concurrency, maxBatch, handlerTimeout, shutdownGrace);
  }
}
