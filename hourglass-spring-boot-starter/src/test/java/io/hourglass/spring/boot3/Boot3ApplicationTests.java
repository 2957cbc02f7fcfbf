package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.ApplicationSuite;
import io.hourglass.spring.testsuite.BootLine;

/** {@link ApplicationSuite} on Spring Boot 3.5. */
class Boot3ApplicationTests extends ApplicationSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
