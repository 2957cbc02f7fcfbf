package io.hourglass.server;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.lang.StackWalker.StackFrame;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import org.springframework.web.bind.annotation.RestController;

/**
 * Records the stacks a job's path through Hourglass passes: a Byte Buddy agent adds, inside this JVM, a call to
 * {@link #hit} at each step of the path (every script call, {@code RedisGateway.run}; a wake signal reaching its
 * listener, {@code WakeBus.Listener.wake}; the creation of a delivery, {@code JobContext}; the callback POST,
 * {@code CallbackHandler.handle}), which keeps the stack as {@link StackWalker} sees it. {@link #report} picks one
 * job's steps and cuts each stack to Hourglass's own classes (a lambda or nested class counts as its top-level class),
 * from the thread's first Hourglass frame (for an HTTP request, its controller) to the step.
 *
 * <p>Each call between two classes on such a stack is told apart by what the classes hold: a call from a class to one
 * that it holds (a field's type, directly or through other Hourglass classes; an interface field holds its
 * implementations) goes down; a call to a class that holds the caller, such as a listener it was handed, comes from
 * below; a call that a {@code CompletableFuture} completion makes is the reply of an asynchronous call returning to its
 * caller. Used by {@link JobPathIntegrationTests}; public because the instrumented core classes call it.
 */
public final class JobPath {
    private static final String INTERNAL = "io.hourglass.internal.";
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final List<Hit> HITS = new CopyOnWriteArrayList<>();
    private static volatile boolean recording;
    private static boolean installed;

    private JobPath() {}

    /** One step as recorded: where, a text that names its job (the script's arguments, the job), the stack. */
    record Hit(String site, String detail, String thread, List<StackFrame> stack) {}

    /** One step of a job's path: its name, the thread, and the Hourglass classes on its stack, outermost first. */
    record Step(String name, String thread, List<Class<?>> classes, List<Boolean> futureReturn) {}

    /** Adds the probes to the core's classes (once per JVM; classes already loaded are retransformed). */
    static synchronized void install() {
        if (installed) {
            return;
        }
        // Loaded before the agent, so that all are retransformed together: JobContext, first loaded after the agent
        // when a test class of the pull API (which makes none) ran before, kept no probe.
        for (String probed : List.of("RedisGateway", "JobContext", "CallbackHandler", "TopicWorker")) {
            try {
                Class.forName(INTERNAL + probed, false, JobPath.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError("the core has no class " + probed, e);
            }
        }
        Instrumentation instrumentation = ByteBuddyAgent.install();
        new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.Listener.StreamWriting.toSystemError().withErrorsOnly())
                .type(named(INTERNAL + "RedisGateway"))
                .transform((builder, type, loader, module, domain) ->
                        builder.visit(Advice.to(ScriptCall.class).on(named("run"))))
                .type(hasSuperType(named(INTERNAL + "WakeBus$Listener")).and(not(isInterface())))
                .transform((builder, type, loader, module, domain) ->
                        builder.visit(Advice.to(WakeHeard.class).on(named("wake"))))
                .type(named(INTERNAL + "JobContext"))
                .transform((builder, type, loader, module, domain) ->
                        builder.visit(Advice.to(DeliveryMade.class).on(isConstructor())))
                .type(named(INTERNAL + "CallbackHandler"))
                .transform((builder, type, loader, module, domain) ->
                        builder.visit(Advice.to(CallbackPost.class).on(named("handle"))))
                .installOn(instrumentation);
        installed = true;
    }

    /** Starts recording (forgetting earlier steps). */
    static void start() {
        HITS.clear();
        recording = true;
    }

    /** Stops recording; returns what was recorded. */
    static List<Hit> stop() {
        recording = false;
        return List.copyOf(HITS);
    }

    /** Called by the probes. */
    public static void hit(String site, String detail) {
        if (recording) {
            HITS.add(new Hit(site, detail, Thread.currentThread().getName(), WALKER.walk(s -> s.skip(1)
                    .toList())));
        }
    }

    /** Advice on {@code RedisGateway.run(Script, byte[][] keys, byte[]... args)}. */
    public static final class ScriptCall {
        private ScriptCall() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) Object script, @Advice.Argument(2) byte[][] args) {
            StringBuilder detail = new StringBuilder(String.valueOf(script));
            for (byte[] a : args) {
                detail.append(' ').append(new String(a, StandardCharsets.ISO_8859_1));
            }
            hit("script", detail.toString());
        }
    }

    /** Advice on {@code wake} of each {@code WakeBus.Listener}: a wake signal reaching its listener. */
    public static final class WakeHeard {
        private WakeHeard() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.This Object listener) {
            hit("wake", listener.getClass().getName());
        }
    }

    /** Advice on {@code JobContext}'s constructor: a claimed job handed to a handler. */
    public static final class DeliveryMade {
        private DeliveryMade() {}

        @Advice.OnMethodExit
        static void exit(@Advice.This Object job) {
            hit("delivery", job.toString());
        }
    }

    /** Advice on {@code CallbackHandler.handle(Job)}: the callback POST. */
    public static final class CallbackPost {
        private CallbackPost() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) Object job) {
            hit("callback", job.toString());
        }
    }

    /**
     * Picks the steps of the job {@code id} of {@code topic} from what was recorded: the schedule script its POST
     * called, the first wake signal after it that reached a topic worker, the claim that leased it (the last claim of
     * the topic before its delivery was made), the delivery, the callback POST, and the script call that carried its
     * ack (ack or a later claim).
     */
    static List<Step> steps(List<Hit> hits, String topic, String id) {
        String job = "[" + topic + "/" + id + ",";
        int schedule = find(
                hits,
                0,
                h -> h.site().equals("script")
                        && h.detail().startsWith("SCHEDULE ")
                        && h.detail().contains(id));
        int wake =
                find(hits, schedule, h -> h.site().equals("wake") && h.detail().endsWith(".TopicWorker"));
        int delivery = find(
                hits, schedule, h -> h.site().equals("delivery") && h.detail().contains(job));
        int claim = -1;
        for (int i = delivery - 1; i > schedule; i--) {
            Hit h = hits.get(i);
            if (h.site().equals("script")
                    && h.detail().startsWith("CLAIM ")
                    && h.detail().contains(topic)) {
                claim = i;
                break;
            }
        }
        int callback = find(
                hits, delivery, h -> h.site().equals("callback") && h.detail().contains(job));
        int ack = find(
                hits,
                callback,
                h -> h.site().equals("script")
                        && (h.detail().startsWith("ACK ") || h.detail().startsWith("CLAIM "))
                        && h.detail().contains(id));
        if (claim < 0) {
            throw new AssertionError("no claim of topic " + topic + " recorded before the delivery of " + id);
        }
        return List.of(
                step("POST to schedule.lua", hits.get(schedule)),
                step("wake signal to topic worker", hits.get(wake)),
                step("claim.lua", hits.get(claim)),
                step("claim's reply to the delivery", hits.get(delivery)),
                step("delivery to the callback POST", hits.get(callback)),
                step("the ack's script call", hits.get(ack)));
    }

    private static int find(List<Hit> hits, int from, Predicate<Hit> which) {
        for (int i = Math.max(from, 0); i < hits.size(); i++) {
            if (which.test(hits.get(i))) {
                return i;
            }
        }
        throw new AssertionError("step not recorded; recorded: "
                + hits.stream()
                        .map(h -> h.site() + " " + h.detail().replaceAll("[^ -~]", "."))
                        .toList());
    }

    /** The stack cut to Hourglass's classes, outermost first, each run of frames of one class counted once. */
    private static Step step(String name, Hit hit) {
        List<Class<?>> classes = new ArrayList<>();
        List<Boolean> futureReturn = new ArrayList<>();
        boolean throughFuture = false;
        List<StackFrame> outermostFirst = new ArrayList<>(hit.stack());
        Collections.reverse(outermostFirst);
        for (StackFrame f : outermostFirst) {
            String className = f.getClassName();
            if (className.startsWith("java.util.concurrent.CompletableFuture")) {
                throughFuture = true;
                continue;
            }
            if (!className.startsWith("io.hourglass.") || className.startsWith(JobPath.class.getName())) {
                continue;
            }
            Class<?> c = topLevel(f.getDeclaringClass());
            if (classes.isEmpty() || classes.get(classes.size() - 1) != c) {
                classes.add(c);
                futureReturn.add(throughFuture && classes.size() > 1);
            }
            throughFuture = false;
        }
        // An HTTP request's path starts at its handler, after the server's filters.
        for (int i = 0; i < classes.size(); i++) {
            if (classes.get(i).isAnnotationPresent(RestController.class)) {
                return new Step(
                        name,
                        hit.thread(),
                        classes.subList(i, classes.size()),
                        futureReturn.subList(i, futureReturn.size()));
            }
        }
        return new Step(name, hit.thread(), classes, futureReturn);
    }

    private static Class<?> topLevel(Class<?> c) {
        Class<?> host = c.getNestHost();
        while (host.getEnclosingClass() != null) {
            host = host.getEnclosingClass();
        }
        return host;
    }

    /** The numbers of a path: over all its steps. */
    record Numbers(int classes, int changes, int reentries, int callsFromBelow, int futureReturns) {}

    /** Counts classes passed, changes of class, re-entries within a step, calls from below and future returns. */
    static Numbers numbers(List<Step> steps) {
        Set<Class<?>> all = new HashSet<>();
        int changes = 0;
        int reentries = 0;
        int fromBelow = 0;
        int futures = 0;
        for (Step s : steps) {
            all.addAll(s.classes());
            changes += s.classes().size() - 1;
            reentries += s.classes().size() - new HashSet<>(s.classes()).size();
            for (int i = 1; i < s.classes().size(); i++) {
                if (s.futureReturn().get(i)) {
                    futures++;
                } else if (callFromBelow(s.classes().get(i - 1), s.classes().get(i))) {
                    fromBelow++;
                }
            }
        }
        return new Numbers(all.size(), changes, reentries, fromBelow, futures);
    }

    /**
     * A table of the steps, one line each: {@code >} a call down or sideways, {@code ^} from below, {@code ~} a reply.
     */
    static String table(List<Step> steps) {
        StringBuilder out = new StringBuilder();
        for (Step s : steps) {
            out.append(String.format("%-31s %-28s ", s.name(), s.thread()));
            for (int i = 0; i < s.classes().size(); i++) {
                if (i > 0) {
                    boolean up =
                            callFromBelow(s.classes().get(i - 1), s.classes().get(i));
                    out.append(s.futureReturn().get(i) ? " ~ " : up ? " ^ " : " > ");
                }
                out.append(s.classes().get(i).getSimpleName());
            }
            out.append('\n');
        }
        Numbers n = numbers(steps);
        out.append(String.format(
                "classes passed %d, changes of class %d, re-entries %d, calls from below %d, future replies %d%n",
                n.classes(), n.changes(), n.reentries(), n.callsFromBelow(), n.futureReturns()));
        return out.toString();
    }

    /**
     * Whether {@code caller} calling {@code callee} goes up: the callee holds the caller, through the concrete
     * Hourglass types of its fields and theirs. Fields of an interface type are not followed: a listener or handler
     * handed in at run time is what a call from below goes through, so it must not make the callee look like the
     * caller's part.
     */
    static synchronized boolean callFromBelow(Class<?> caller, Class<?> callee) {
        return HELD.computeIfAbsent(callee, JobPath::reachable).contains(caller);
    }

    private static final Map<Class<?>, Set<Class<?>>> HELD = new HashMap<>();

    private static Set<Class<?>> reachable(Class<?> from) {
        Set<Class<?>> seen = new LinkedHashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(from));
        while (!todo.isEmpty()) {
            for (Class<?> member : todo.pop().getNestMembers()) {
                for (Field f : member.getDeclaredFields()) {
                    for (Class<?> held : hourglassClasses(f.getGenericType(), new ArrayList<>())) {
                        if (seen.add(held)) {
                            todo.push(held);
                        }
                    }
                }
            }
        }
        return seen;
    }

    private static List<Class<?>> hourglassClasses(Type type, List<Class<?>> out) {
        if (type instanceof Class<?> c) {
            Class<?> t = c.isArray() ? c.componentType() : c;
            if (t.getName().startsWith("io.hourglass.") && !t.isInterface()) {
                out.add(topLevel(t));
            }
        } else if (type instanceof ParameterizedType p) {
            hourglassClasses(p.getRawType(), out);
            for (Type a : p.getActualTypeArguments()) {
                hourglassClasses(a, out);
            }
        }
        return out;
    }
}
