package io.hourglass.cli;

import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.util.Map;

@RedisTest(shards = 1)
class CliOneShardIntegrationTests extends CliSuite {
    @Override
    Map<String, String> redisEnvironment(HourglassFactory factory) {
        return Map.of("HOURGLASS_REDIS", factory.redisUri());
    }
}
