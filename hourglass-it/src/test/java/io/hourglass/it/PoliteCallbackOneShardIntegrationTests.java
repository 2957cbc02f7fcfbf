package io.hourglass.it;

import io.hourglass.testkit.RedisTest;

@RedisTest(shards = 1)
class PoliteCallbackOneShardIntegrationTests extends PoliteCallbackSuite {}
