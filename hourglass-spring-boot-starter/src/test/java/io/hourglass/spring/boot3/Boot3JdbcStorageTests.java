package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.JdbcStorageSuite;

/** {@link JdbcStorageSuite} on Spring Boot 3.5. */
class Boot3JdbcStorageTests extends JdbcStorageSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
