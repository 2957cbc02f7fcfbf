package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.JdbcStorageSuite;

/** {@link JdbcStorageSuite} on Spring Boot 4. */
class Boot4JdbcStorageTests extends JdbcStorageSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
