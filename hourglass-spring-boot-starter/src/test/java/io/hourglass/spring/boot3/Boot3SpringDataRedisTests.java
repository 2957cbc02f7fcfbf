package io.hourglass.spring.boot3;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.SpringDataRedisSuite;

/** {@link SpringDataRedisSuite} on Spring Boot 3.5. */
class Boot3SpringDataRedisTests extends SpringDataRedisSuite {

    @Override
    protected BootLine line() {
        return Boot3Line.INSTANCE;
    }
}
