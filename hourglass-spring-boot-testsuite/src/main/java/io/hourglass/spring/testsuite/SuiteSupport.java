package io.hourglass.spring.testsuite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The base of every suite: the line under test and context runners with Hourglass's auto-configurations as the
 * starters' {@code AutoConfiguration.imports} files list them.
 */
public abstract class SuiteSupport {
    private static final String IMPORTS =
            "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

    /** @return the Spring Boot line under test */
    protected abstract BootLine line();

    /** @return a runner with every Hourglass auto-configuration and the line's Jackson, no properties */
    protected ApplicationContextRunner runner() {
        List<Class<?>> configurations = new ArrayList<>(hourglassAutoConfigurations());
        configurations.add(line().jacksonAutoConfiguration());
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(configurations.toArray(Class<?>[]::new)));
    }

    /**
     * @param redisUri the test's Redis
     * @param namespace the test's namespace
     * @return {@link #runner()} connected to the test's Redis, with a short sweep interval
     */
    protected ApplicationContextRunner runner(String redisUri, String namespace) {
        return runner().withPropertyValues(
                        "hourglass.redis.uri=" + redisUri,
                        "hourglass.namespace=" + namespace,
                        "hourglass.sweep-interval=200ms");
    }

    /** @return the auto-configurations of Hourglass's {@code AutoConfiguration.imports} files on the class path */
    protected static List<Class<?>> hourglassAutoConfigurations() {
        List<Class<?>> classes = new ArrayList<>();
        for (String name : hourglassAutoConfigurationNames()) {
            try {
                classes.add(Class.forName(name));
            } catch (ClassNotFoundException e) {
                throw new AssertionError("listed in " + IMPORTS + " but missing: " + name, e);
            }
        }
        return classes;
    }

    /** @return the names Hourglass's {@code AutoConfiguration.imports} files list, in class path order */
    protected static List<String> hourglassAutoConfigurationNames() {
        List<String> names = new ArrayList<>();
        try {
            for (URL url : Collections.list(SuiteSupport.class.getClassLoader().getResources(IMPORTS))) {
                try (BufferedReader reader =
                        new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    reader.lines()
                            .map(String::trim)
                            .filter(line -> line.startsWith("io.hourglass."))
                            .forEach(names::add);
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return names;
    }

    /**
     * @param failure a start-up failure
     * @return the messages of it and all its causes, joined, for assertions that should not depend on wrapping
     */
    protected static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
