package io.hourglass.it;

import io.hourglass.testkit.RedisTest;

/** The worker suite on a local Redis Cluster of 3 masters, each topic spread over 8 shards. */
@RedisTest(clusterMasters = 3, shards = 8)
class WorkerClusterIntegrationTests extends WorkerSuite {}
