package io.hourglass.spring.boot4;

import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.SpringDataRedisSuite;

/** {@link SpringDataRedisSuite} on Spring Boot 4. */
class Boot4SpringDataRedisTests extends SpringDataRedisSuite {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }
}
