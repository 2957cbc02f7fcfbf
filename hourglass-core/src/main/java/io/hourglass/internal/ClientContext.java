package io.hourglass.internal;

import io.hourglass.HandlerThreads;
import io.hourglass.HourglassSettings;
import io.hourglass.validation.CallbackAllowList;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every part of one Hourglass instance shares: its settings, key layout, Redis connections, wake signals, the
 * estimate of Redis's clock, the timer thread and whether the instance was closed. Made once by {@link #open}, handed
 * to each part's constructor; thread-safe.
 */
record ClientContext(
        HourglassSettings settings,
        KeyLayout layout,
        RedisGateway redis,
        WakeBus wakeBus,
        ServerClock clock,
        ScheduledThreadPoolExecutor timer,
        CallbackAllowList callbackAllowList,
        AtomicBoolean closed) {

    /** Connects to Redis and, unless in polling mode, subscribes to the namespace's wake signals. */
    static ClientContext open(HourglassSettings settings) {
        KeyLayout layout = new KeyLayout(settings.namespace(), settings.shards());
        CallbackAllowList allowList = new CallbackAllowList(settings.callbackAllowList());
        RedisGateway redis = new RedisGateway(
                settings.redisUris(), settings.cluster(), settings.commandTimeout(), settings.tlsTrustedCertificates());
        WakeBus wakeBus = new WakeBus(layout.wakeChannelPrefix());
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(
                1, HandlerThreads.factory("hourglass-timer-" + settings.namespace(), false));
        timer.setRemoveOnCancelPolicy(true);
        if (!settings.pollingMode()) {
            try {
                redis.subscribe(layout.wakeChannelPrefix() + "*", wakeBus::onMessage);
            } catch (RuntimeException e) {
                timer.shutdownNow();
                redis.close();
                throw e;
            }
        }
        return new ClientContext(
                settings, layout, redis, wakeBus, new ServerClock(), timer, allowList, new AtomicBoolean());
    }

    boolean isClosed() {
        return closed.get();
    }

    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("this Hourglass instance is closed");
        }
    }

    /** {@code delay}, unless it is further ahead than the instance accepts ({@code field} names it in the error). */
    Duration checkDelay(Duration delay, String field) {
        if (delay.compareTo(settings.maxDelay()) > 0) {
            throw new IllegalArgumentException(
                    field + ": " + delay + " ahead is more than the limit of " + settings.maxDelay());
        }
        return delay;
    }

    /** Stops the timer and closes the connections; the caller marked the instance closed and stopped its workers. */
    void shutdown() {
        timer.shutdownNow();
        redis.close();
    }
}
