package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.StartupSuite;

/** {@link StartupSuite} on Spring Boot 3.5. */
class Boot3StartupTests extends StartupSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
