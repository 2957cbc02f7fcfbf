package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.ListenerSuite;

/** {@link ListenerSuite} on Spring Boot 4. */
class Boot4ListenerTests extends ListenerSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
