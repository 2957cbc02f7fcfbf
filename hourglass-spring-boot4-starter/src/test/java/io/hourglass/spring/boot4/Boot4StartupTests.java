package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.StartupSuite;

/** {@link StartupSuite} on Spring Boot 4. */
class Boot4StartupTests extends StartupSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
