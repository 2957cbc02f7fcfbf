package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.MetricsSuite;

/** {@link MetricsSuite} on Spring Boot 4. */
class Boot4MetricsTests extends MetricsSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
