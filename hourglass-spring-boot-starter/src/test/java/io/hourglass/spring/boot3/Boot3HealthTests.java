package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.HealthSuite;

/** {@link HealthSuite} on Spring Boot 3.5. */
class Boot3HealthTests extends HealthSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
