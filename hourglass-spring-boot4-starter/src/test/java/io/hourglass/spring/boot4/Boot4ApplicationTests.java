package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.ApplicationSuite;
import io.hourglass.spring.testsuite.BootLine;

/** {@link ApplicationSuite} on Spring Boot 4. */
class Boot4ApplicationTests extends ApplicationSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
