package io.hourglass.spring.testsuite;

import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationContext;

/**
 * What differs between the Spring Boot lines in the suites: Spring Boot's own auto-configurations (their classes moved
 * in 4.x), the Jackson mapper type, the Redis connection details type and the health API. Each starter's tests
 * implement it once and hand it to every suite.
 */
public interface BootLine {

    /** @return e.g. {@code Spring Boot 3.5} */
    String name();

    /** @return Spring Boot's Spring Data Redis auto-configuration */
    Class<?> dataRedisAutoConfiguration();

    /** @return Spring Boot's auto-configuration of the line's default Jackson */
    Class<?> jacksonAutoConfiguration();

    /** @return Spring Boot's metrics auto-configurations that give a simple {@code MeterRegistry} */
    List<Class<?>> metricsAutoConfigurations();

    /**
     * @return the line's application JSON mapper bean type: Jackson 3 {@code JsonMapper} or Jackson 2
     *     {@code ObjectMapper}
     */
    Class<?> jsonMapperType();

    /** @return the codec class the auto-configuration should pick for that mapper */
    Class<?> expectedCodecType();

    /** @return the line's Redis connection details interface */
    Class<?> connectionDetailsType();

    /**
     * @param host host
     * @param port port
     * @return connection details of one Redis, as a service connection (Testcontainers, Docker Compose) gives them
     */
    Object standaloneConnectionDetails(String host, int port);

    /** @return the line's health indicator type */
    Class<?> healthIndicatorType();

    /**
     * @param context a context with the {@code hourglassHealthIndicator} bean
     * @return what it reports now
     */
    HealthView health(ApplicationContext context);

    /**
     * A health indicator's answer, independent of the line's health API.
     *
     * @param status e.g. {@code UP}
     * @param details its details
     */
    record HealthView(String status, Map<String, Object> details) {}
}
