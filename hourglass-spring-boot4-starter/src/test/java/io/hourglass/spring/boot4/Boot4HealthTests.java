package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.HealthSuite;

/** {@link HealthSuite} on Spring Boot 4. */
class Boot4HealthTests extends HealthSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
