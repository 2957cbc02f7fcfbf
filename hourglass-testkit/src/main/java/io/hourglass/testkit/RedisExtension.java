package io.hourglass.testkit;

import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.embedded.RedisServerProcess;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** The JUnit 5 extension behind {@link RedisTest}. */
public final class RedisExtension
        implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {
    /** Sweep interval of injected instances: short, so tests of the backstop run fast. */
    public static final Duration TEST_SWEEP_INTERVAL = Duration.ofMillis(200);

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(RedisExtension.class);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        RedisTest config = config(context);
        int masters = config == null ? 0 : config.clusterMasters();
        int replicas = config == null ? 0 : config.clusterReplicas();
        context.getStore(STORE)
                .getOrComputeIfAbsent("server", k -> new ServerResource(masters, replicas), ServerResource.class);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        for (String uri : servers(context).masterUris()) {
            AdminRedis.call(uri, StringCodec.UTF8, RedisCommands::flushall);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Instances instances = context.getStore(STORE).remove("instances", Instances.class);
        if (instances != null) {
            instances.closeAll();
        }
        RedisTest config = config(context);
        if (config != null && !config.checkInvariants()) {
            return;
        }
        List<String> violations = new java.util.ArrayList<>();
        for (String uri : servers(context).masterUris()) {
            violations.addAll(InvariantChecker.check(uri));
        }
        if (!violations.isEmpty()) {
            throw new AssertionError("Hourglass invariants violated after " + context.getDisplayName() + ":\n  "
                    + String.join("\n  ", violations));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == RedisServerProcess.class
                || type == Hourglass.class
                || type == HourglassFactory.class
                || (type == RedisClusterProcess.class && servers(context).cluster != null);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == RedisServerProcess.class) {
            return servers(context).first();
        }
        if (type == RedisClusterProcess.class) {
            return servers(context).cluster;
        }
        if (context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException(type.getSimpleName() + " can only be injected into test methods");
        }
        HourglassFactory factory = factory(context);
        return type == HourglassFactory.class ? factory : factory.create();
    }

    private HourglassFactory factory(ExtensionContext context) {
        Instances instances =
                context.getStore(STORE).getOrComputeIfAbsent("instances", k -> new Instances(), Instances.class);
        ServerResource servers = servers(context);
        String uri = servers.first().uri();
        String namespace = "test" + NAMESPACES.incrementAndGet();
        RedisTest config = config(context);
        int shards = config == null ? 1 : config.shards();
        List<HourglassPreset> presets = context.getTestInstances()
                .map(all -> all.getAllInstances().stream()
                        .filter(HourglassPreset.class::isInstance)
                        .map(HourglassPreset.class::cast)
                        .toList())
                .orElse(List.of());
        return new HourglassFactory() {
            @Override
            public String redisUri() {
                return uri;
            }

            @Override
            public String namespace() {
                return namespace;
            }

            @Override
            public Hourglass create(UnaryOperator<HourglassBuilder> customizer) {
                HourglassBuilder builder = Hourglass.builder()
                        .redisUri(uri)
                        .namespace(namespace)
                        .shards(shards)
                        .sweepInterval(TEST_SWEEP_INTERVAL);
                if (servers.cluster != null) {
                    builder.clusterNodes(servers.nodeUris().toArray(String[]::new));
                }
                for (HourglassPreset preset : presets) {
                    builder = preset.preset(builder, namespace);
                }
                Hourglass hourglass = customizer.apply(builder).build();
                instances.list.add(hourglass);
                return hourglass;
            }
        };
    }

    private static RedisTest config(ExtensionContext context) {
        return context.getTestClass()
                .flatMap(c -> AnnotationSupport.findAnnotation(c, RedisTest.class))
                .orElse(null);
    }

    private static ServerResource servers(ExtensionContext context) {
        // Store lookups fall back to the parent context's store, where beforeAll put the class's servers.
        return context.getStore(STORE).get("server", ServerResource.class);
    }

    /** The class's standalone server, or its cluster. */
    private static final class ServerResource implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final RedisServerProcess standalone;
        final RedisClusterProcess cluster;

        ServerResource(int clusterMasters, int clusterReplicas) {
            try {
                this.cluster = clusterMasters > 0 ? RedisClusterProcess.start(clusterMasters, clusterReplicas) : null;
                this.standalone = clusterMasters > 0
                        ? null
                        : RedisServerProcess.builder().build().start();
            } catch (Exception e) {
                throw new IllegalStateException("could not start redis-server for the test: " + e.getMessage(), e);
            }
        }

        RedisServerProcess first() {
            return cluster != null ? cluster.nodes().get(0) : standalone;
        }

        List<String> nodeUris() {
            return cluster != null ? cluster.seedUris() : List.of(standalone.uri());
        }

        /** The nodes that hold the data: a cluster's masters now (replicas refuse writes), or the standalone server. */
        List<String> masterUris() {
            return cluster != null ? cluster.masterUris() : List.of(standalone.uri());
        }

        @Override
        public void close() {
            if (cluster != null) {
                cluster.close();
            } else {
                standalone.close();
            }
        }
    }

    private static final class Instances implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final List<Hourglass> list = new CopyOnWriteArrayList<>();

        void closeAll() {
            for (Hourglass h : list) {
                h.close();
            }
            list.clear();
        }

        @Override
        public void close() {
            closeAll();
        }
    }
}
