package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.TemplateSuite;

/** {@link TemplateSuite} on Spring Boot 3.5. */
class Boot3TemplateTests extends TemplateSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
