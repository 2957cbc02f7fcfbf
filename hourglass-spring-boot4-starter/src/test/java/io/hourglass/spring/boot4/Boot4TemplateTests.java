package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.TemplateSuite;

/** {@link TemplateSuite} on Spring Boot 4. */
class Boot4TemplateTests extends TemplateSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
