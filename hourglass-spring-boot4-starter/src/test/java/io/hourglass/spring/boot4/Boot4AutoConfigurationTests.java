package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.AutoConfigurationSuite;
import io.hourglass.spring.testsuite.BootLine;

/** {@link AutoConfigurationSuite} on Spring Boot 4. */
class Boot4AutoConfigurationTests extends AutoConfigurationSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
