package io.hourglass;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a worker's handlers run on: platform daemon threads, or virtual threads where the JVM has them (Java 21
 * and later). Hourglass is compiled for Java 17, which has no {@code Thread.ofVirtual()}, so the virtual-thread builder
 * is found at run time. Public so that code compiled for Java 17 beside Hourglass (a server flag, a benchmark's
 * consumers, tests that check which threads ran a handler) can ask the same questions the same way. Thread-safe; static
 * methods only.
 */
public final class HandlerThreads {
    /** {@code Thread.ofVirtual()}, or null on a JVM without virtual threads. */
    private static final MethodHandle OF_VIRTUAL;

    private static final MethodHandle NAME;
    private static final MethodHandle FACTORY;
    /** {@code Thread.isVirtual()}, or null on a JVM without virtual threads. */
    private static final MethodHandle IS_VIRTUAL;

    static {
        MethodHandle ofVirtual = null;
        MethodHandle name = null;
        MethodHandle factory = null;
        MethodHandle isVirtual = null;
        // Java 19 and 20 have the method, but as a preview that throws unless the JVM was started with it enabled.
        if (Runtime.version().feature() >= 21) {
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                Class<?> ofVirtualBuilder = Class.forName("java.lang.Thread$Builder$OfVirtual");
                ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualBuilder));
                name = lookup.findVirtual(builder, "name", MethodType.methodType(builder, String.class, long.class));
                factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
                isVirtual = lookup.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
            } catch (ReflectiveOperationException e) {
                ofVirtual = null;
                isVirtual = null;
            }
        }
        OF_VIRTUAL = ofVirtual;
        NAME = name;
        FACTORY = factory;
        IS_VIRTUAL = isVirtual;
    }

    private HandlerThreads() {}

    /** @return whether this JVM can run handlers on virtual threads (Java 21 or later) */
    public static boolean virtualThreadsAvailable() {
        return OF_VIRTUAL != null;
    }

    /**
     * @param thread any thread
     * @return whether it is a virtual thread; always false on a JVM without them
     */
    public static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invoke(thread);
        } catch (Throwable e) {
            throw new IllegalStateException("could not ask whether " + thread + " is virtual", e);
        }
    }

    /**
     * @param field the option that asks for virtual threads, named in the error
     * @throws IllegalArgumentException naming {@code field} on a JVM without virtual threads
     */
    public static void requireVirtualThreads(String field) {
        if (!virtualThreadsAvailable()) {
            throw new IllegalArgumentException(field + ": this JVM (Java "
                    + Runtime.version().feature() + ") has no virtual threads; they need Java 21 or later");
        }
    }

    /**
     * @param name the threads' name prefix; each thread is named {@code name-1}, {@code name-2}, …
     * @param virtual true for virtual threads, which needs {@link #virtualThreadsAvailable()}
     * @return a factory of daemon threads (virtual threads are always daemons)
     * @throws IllegalStateException when {@code virtual} is true on a JVM without virtual threads
     */
    public static ThreadFactory factory(String name, boolean virtual) {
        if (!virtual) {
            AtomicInteger n = new AtomicInteger();
            return r -> {
                Thread t = new Thread(r, name + "-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            };
        }
        if (!virtualThreadsAvailable()) {
            throw new IllegalStateException("virtual threads need Java 21 or later; this JVM is Java "
                    + Runtime.version().feature());
        }
        try {
            Object builder = OF_VIRTUAL.invoke();
            builder = NAME.invoke(builder, name + "-", 1L);
            return (ThreadFactory) FACTORY.invoke(builder);
        } catch (Throwable e) {
            throw new IllegalStateException("could not create a virtual thread factory", e);
        }
    }
}
