package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.AutoConfigurationSuite;
import io.hourglass.spring.testsuite.BootLine;

/** {@link AutoConfigurationSuite} on Spring Boot 3.5. */
class Boot3AutoConfigurationTests extends AutoConfigurationSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
