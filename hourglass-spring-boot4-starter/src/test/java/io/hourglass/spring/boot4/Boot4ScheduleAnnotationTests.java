package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.ScheduleAnnotationSuite;

/** {@link ScheduleAnnotationSuite} on Spring Boot 4. */
class Boot4ScheduleAnnotationTests extends ScheduleAnnotationSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
