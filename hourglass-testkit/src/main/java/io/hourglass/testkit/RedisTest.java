package io.hourglass.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a real {@code redis-server} (the one on {@code PATH}, else the binary inside the
 * {@code embedded-redis} artifact) started on a free port for the class and stopped after it. Before each test the
 * server is flushed; after each test every {@link io.hourglass.Hourglass} the test got is closed and the
 * {@link InvariantChecker} must find no violation, or the test fails.
 *
 * <p>Test methods (and constructors) may declare parameters of type {@link io.hourglass.embedded.RedisServerProcess},
 * {@link io.hourglass.Hourglass} (built with {@link #shards()} shards and the test's own namespace) and
 * {@link HourglassFactory} (to build more instances, e.g. with other options). A test class that implements
 * {@link HourglassPreset} has every one of them built with its settings.
 *
 * <pre>{@code
 * @RedisTest(shards = 4)
 * class OrderTimeoutTests {
 *   @Test
 *   void closesAnUnpaidOrder(Hourglass hourglass) { ... }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RedisExtension.class)
public @interface RedisTest {

    /** @return shards per topic of the injected {@link io.hourglass.Hourglass} instances */
    int shards() default 1;

    /**
     * @return 0 for one standalone {@code redis-server}; N for a local Redis Cluster of N masters, which injected
     *     instances use through {@link io.hourglass.HourglassBuilder#clusterNodes}; a {@code RedisServerProcess}
     *     parameter then gets the first node and a {@link io.hourglass.embedded.RedisClusterProcess} parameter the
     *     whole cluster
     */
    int clusterMasters() default 0;

    /**
     * @return replicas of each cluster master, 0 to 2 (only with {@link #clusterMasters()}), for tests that fail a
     *     master over with {@link io.hourglass.embedded.RedisClusterProcess#failover}
     */
    int clusterReplicas() default 0;

    /** @return whether to run the invariant checker after each test */
    boolean checkInvariants() default true;
}
