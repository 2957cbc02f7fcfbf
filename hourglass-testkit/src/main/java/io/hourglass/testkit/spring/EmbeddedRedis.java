package io.hourglass.testkit.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the application contexts of a Spring test class ({@code @SpringBootTest}, {@code @ContextConfiguration}) against
 * a real {@code redis-server} that the test kit starts: Hourglass and Spring Data Redis connect to it.
 *
 * <pre>{@code
 * @SpringBootTest
 * @EmbeddedRedis
 * class OrderTimeoutTests {
 *   @Autowired HourglassTemplate hourglass;
 *   ...
 * }
 * }</pre>
 *
 * <p>One Redis on a free port of 127.0.0.1 (no persistence) serves every context of the JVM that asks for it, so
 * Spring's context cache keeps working: the annotation adds the same configuration to each context, and contexts that
 * are otherwise equal are shared. Each context sets, ahead of the application's own settings,
 * {@code hourglass.redis.uri}, {@code spring.data.redis.url}, {@code spring.data.redis.host} and
 * {@code spring.data.redis.port} to that Redis. The Redis stops when the last context using it closes, after the
 * context's listeners have drained and Hourglass has closed its connections (cached contexts close at JVM exit), so no
 * client sees it vanish; a later context starts a new one.
 *
 * <p>Needs {@code spring-test} on the class path and {@code redis-server} on the {@code PATH} (or the binary
 * {@code hourglass-embedded} resolves). Keys are not flushed between tests: give jobs ids of their own or use a
 * namespace per test class ({@code hourglass.namespace}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EmbeddedRedis {}
