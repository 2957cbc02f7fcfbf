package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.ClusterSuite;

/** {@link ClusterSuite} on Spring Boot 3.5. */
class Boot3ClusterTests extends ClusterSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
