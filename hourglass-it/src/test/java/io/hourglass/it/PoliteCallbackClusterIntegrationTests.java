package io.hourglass.it;

import io.hourglass.testkit.RedisTest;

@RedisTest(clusterMasters = 3, shards = 8)
class PoliteCallbackClusterIntegrationTests extends PoliteCallbackSuite {}
