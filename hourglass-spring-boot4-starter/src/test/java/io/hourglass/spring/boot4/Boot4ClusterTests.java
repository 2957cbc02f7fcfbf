package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.ClusterSuite;

/** {@link ClusterSuite} on Spring Boot 4. */
class Boot4ClusterTests extends ClusterSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
