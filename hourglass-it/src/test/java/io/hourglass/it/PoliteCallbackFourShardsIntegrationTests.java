package io.hourglass.it;

import io.hourglass.testkit.RedisTest;

@RedisTest(shards = 4)
class PoliteCallbackFourShardsIntegrationTests extends PoliteCallbackSuite {}
