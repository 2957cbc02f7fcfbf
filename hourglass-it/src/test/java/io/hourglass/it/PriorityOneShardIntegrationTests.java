package io.hourglass.it;

import io.hourglass.testkit.RedisTest;

@RedisTest(shards = 1)
class PriorityOneShardIntegrationTests extends PrioritySuite {}
