package io.hourglass.server;

import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.RedisTest;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs the real server (Tomcat on a random port) against the test class's real redis-server, which the test kit
 * starts and checks for Hourglass invariants after each test. Each test uses topics of its own ({@link #topic()}),
 * since the test kit flushes Redis between tests.
 */
@RedisTest
abstract class ServerTestSupport {
  private static final AtomicInteger TOPICS = new AtomicInteger();
  static ConfigurableApplicationContext context;
  static Api api;

  @BeforeAll
  static void startServer(RedisServerProcess redis) {
    context = SpringApplication.run(HourglassServer.class, "--server.port=0", "--hourglass.redis=" + redis.uri(),
        "--hourglass.namespace=server-tests");
    api = new Api(port());
  }

  @AfterAll
  static void stopServer() {
    if (context != null) {
      context.close();
      context = null;
    }
  }

  /** @return the server's HTTP port */
  static int port() {
    return ((ServletWebServerApplicationContext) context).getWebServer().getPort();
  }

  /** @return a topic no other test uses */
  static String topic() {
    return "topic-" + TOPICS.incrementAndGet();
  }

}
