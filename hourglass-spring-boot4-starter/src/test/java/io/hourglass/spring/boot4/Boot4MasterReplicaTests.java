package io.hourglass.spring.boot4;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.spring.testsuite.BootLine;
import io.hourglass.spring.testsuite.SuiteSupport;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;

/** Spring Boot 4.1's static master/replica setup, which Hourglass cannot use, fails the start-up plainly. */
@RedisTest
class Boot4MasterReplicaTests extends SuiteSupport {

    @Override
    protected BootLine line() {
        return Boot4Line.INSTANCE;
    }

    @Test
    void aStaticMasterReplicaSetupFailsTheStartUpNamingTheProperty(HourglassFactory redis) {
        runner().withConfiguration(AutoConfigurations.of(line().dataRedisAutoConfiguration()))
                .withBean("standIn", Hourglass.class, redis::create)
                .withPropertyValues("spring.data.redis.masterreplica.nodes=h1:6379,h2:6380")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("spring.data.redis.masterreplica")
                        .contains("hourglass.redis.uri")));
    }
}
