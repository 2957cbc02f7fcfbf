package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.SpringTestKitSuite;

/** {@link SpringTestKitSuite} on Spring Boot 3.5. */
class Boot3SpringTestKitTests extends SpringTestKitSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
