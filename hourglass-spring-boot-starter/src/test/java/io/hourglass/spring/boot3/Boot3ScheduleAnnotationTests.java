package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.ScheduleAnnotationSuite;

/** {@link ScheduleAnnotationSuite} on Spring Boot 3.5. */
class Boot3ScheduleAnnotationTests extends ScheduleAnnotationSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
