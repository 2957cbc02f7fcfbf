package io.hourglass.spring;

import io.hourglass.Hourglass;
import io.hourglass.RedisUnavailableException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Hourglass} that keeps trying to connect in the background, for {@code hourglass.fail-fast=false}: until
 * Redis answers, every method that needs the instance throws {@link RedisUnavailableException} (so the health indicator
 * reports DOWN) except {@link Hourglass#namespace()} and {@link Hourglass#shards()}, answered from the settings; once
 * connected, every call goes to the connected instance and the actions given to {@link #whenConnected(Hourglass,
 * Runnable)} run (the listener workers start). Thread-safe.
 */
public final class DeferredHourglass implements InvocationHandler {
    private static final Logger log = LoggerFactory.getLogger(DeferredHourglass.class);

    private final Supplier<Hourglass> connect;
    private final String namespace;
    private final int shards;
    private final String target;
    private final ScheduledExecutorService retries;
    private final List<Runnable> onConnected = new ArrayList<>();
    private volatile Hourglass delegate;
    private volatile RuntimeException lastFailure;
    private boolean closed;

    private DeferredHourglass(Supplier<Hourglass> connect, String namespace, int shards, String target) {
        this.connect = connect;
        this.namespace = namespace;
        this.shards = shards;
        this.target = target;
        this.retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hourglass-connect");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * @param connect builds and connects the instance; throws {@link RedisUnavailableException} while Redis cannot be
     *     reached; not null
     * @param firstFailure why the first try failed; not null
     * @param namespace the configured namespace; not null
     * @param shards the configured shards per topic
     * @param target where it connects, passwords masked, for the messages
     * @param retryInterval time between tries; positive
     * @return an instance that connects as soon as Redis answers
     */
    public static Hourglass create(
            Supplier<Hourglass> connect,
            RuntimeException firstFailure,
            String namespace,
            int shards,
            String target,
            Duration retryInterval) {
        DeferredHourglass handler = new DeferredHourglass(
                Objects.requireNonNull(connect, "connect"),
                Objects.requireNonNull(namespace, "namespace"),
                shards,
                target);
        handler.lastFailure = Objects.requireNonNull(firstFailure, "firstFailure");
        long ms = retryInterval.toMillis();
        handler.retries.scheduleWithFixedDelay(handler::tryConnect, ms, ms, TimeUnit.MILLISECONDS);
        return (Hourglass)
                Proxy.newProxyInstance(Hourglass.class.getClassLoader(), new Class<?>[] {Hourglass.class}, handler);
    }

    /**
     * Runs {@code action} once the instance is connected: at once for an ordinary instance or a connected deferred one,
     * else on the connecting thread when Redis first answers.
     *
     * @param hourglass any instance; not null
     * @param action what to run; not null
     */
    public static void whenConnected(Hourglass hourglass, Runnable action) {
        if (Proxy.isProxyClass(hourglass.getClass())
                && Proxy.getInvocationHandler(hourglass) instanceof DeferredHourglass deferred) {
            deferred.whenConnected(action);
        } else {
            action.run();
        }
    }

    private void whenConnected(Runnable action) {
        synchronized (this) {
            if (delegate == null) {
                onConnected.add(action);
                return;
            }
        }
        action.run();
    }

    private void tryConnect() {
        List<Runnable> actions;
        synchronized (this) {
            if (closed || delegate != null) {
                return;
            }
            try {
                delegate = connect.get();
            } catch (RuntimeException e) {
                lastFailure = e;
                log.warn("Hourglass still cannot connect to Redis at {}: {}", target, e.getMessage());
                return;
            }
            actions = List.copyOf(onConnected);
            onConnected.clear();
        }
        log.info("Hourglass connected to Redis at {}", target);
        retries.shutdown();
        for (Runnable action : actions) {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.error("Hourglass: an action after connecting to Redis failed", e);
            }
        }
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return delegate != null ? delegate.toString() : "Hourglass (not connected yet to " + target + ")";
            case "close":
                close();
                return null;
            default:
                break;
        }
        Hourglass connected = delegate;
        if (connected == null) {
            if (method.getName().equals("namespace") && method.getParameterCount() == 0) {
                return namespace;
            }
            if (method.getName().equals("shards") && method.getParameterCount() == 0) {
                return shards;
            }
            throw new RedisUnavailableException(
                    "Hourglass is not connected to Redis at " + target + " yet (hourglass.fail-fast=false); retrying",
                    lastFailure);
        }
        try {
            return method.invoke(connected, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private void close() throws Exception {
        Hourglass connected;
        synchronized (this) {
            closed = true;
            connected = delegate;
        }
        retries.shutdownNow();
        if (connected != null) {
            connected.close();
        }
    }
}
