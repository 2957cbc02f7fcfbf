package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.MetricsSuite;

/** {@link MetricsSuite} on Spring Boot 3.5. */
class Boot3MetricsTests extends MetricsSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
