package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.ListenerSuite;

/** {@link ListenerSuite} on Spring Boot 3.5. */
class Boot3ListenerTests extends ListenerSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
