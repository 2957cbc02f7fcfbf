package io.hourglass.testkit.spring;

import io.hourglass.embedded.RedisServerProcess;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Connects the contexts of {@link EmbeddedRedis} test classes to the shared {@code redis-server}. Registered in
 * {@code META-INF/spring.factories}, so Spring's test framework applies it to every test class; it does nothing for
 * classes without the annotation. Thread-safe (stateless).
 */
public class EmbeddedRedisContextCustomizerFactory implements ContextCustomizerFactory {
    /** The name of the property source the customizer adds first, ahead of the application's own. */
    public static final String PROPERTY_SOURCE = "hourglassEmbeddedRedis";

    /** Creates the factory; Spring's test framework does so through {@code spring.factories}. */
    public EmbeddedRedisContextCustomizerFactory() {}

    /**
     * @param testClass the test class
     * @param configAttributes its context configuration
     * @return the customizer for an {@link EmbeddedRedis} class (its nested classes and subclasses included), else null
     */
    @Override
    public ContextCustomizer createContextCustomizer(
            Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        return TestContextAnnotationUtils.hasAnnotation(testClass, EmbeddedRedis.class) ? new Customizer() : null;
    }

    /** Equal to every other, so that it leaves Spring's context cache keys alone. */
    static final class Customizer implements ContextCustomizer {
        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            RedisServerProcess redis = SharedRedisServer.acquire();
            context.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource(
                            PROPERTY_SOURCE,
                            Map.of(
                                    "hourglass.redis.uri", redis.uri(),
                                    "spring.data.redis.host", redis.host(),
                                    "spring.data.redis.port", Integer.toString(redis.port()),
                                    "spring.data.redis.url", redis.uri())));
            // Registered before every bean of the application, so destroyed after all of them.
            Release release = new Release();
            if (context.getBeanFactory() instanceof DefaultListableBeanFactory beans) {
                beans.registerSingleton(Release.NAME, release);
                beans.registerDisposableBean(Release.NAME, release);
            } else {
                SharedRedisServer.release();
                throw new IllegalStateException("@EmbeddedRedis needs a context with a DefaultListableBeanFactory");
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Customizer;
        }

        @Override
        public int hashCode() {
            return Customizer.class.hashCode();
        }
    }

    /** Lets go of the shared Redis when its context is destroyed. */
    static final class Release implements DisposableBean {
        static final String NAME = "hourglassEmbeddedRedisRelease";

        @Override
        public void destroy() {
            SharedRedisServer.release();
        }
    }
}
