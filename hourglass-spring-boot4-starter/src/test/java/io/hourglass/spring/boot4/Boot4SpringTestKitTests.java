package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.SpringTestKitSuite;

/** {@link SpringTestKitSuite} on Spring Boot 4. */
class Boot4SpringTestKitTests extends SpringTestKitSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
