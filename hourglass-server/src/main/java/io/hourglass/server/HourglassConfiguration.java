package io.hourglass.server;

import io.hourglass.CallbackOptions;
import io.hourglass.Hourglass;
import io.hourglass.Worker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the Redis target, the {@link Hourglass} instance and the callback delivery. Spring destroys them in the
 * reverse order: callback delivery stops gracefully, then Hourglass closes, then the embedded Redis (if any) stops.
 */
@Configuration(proxyBeanMethods = false)
public class HourglassConfiguration {
  private static final Logger log = LoggerFactory.getLogger(HourglassConfiguration.class);

  /**
   * @param properties the server's settings
   * @return the configured Redis, or a started embedded one
   */
  @Bean(destroyMethod = "close")
  public RedisTarget redisTarget(HourglassServerProperties properties) {
    return properties.embeddedRedis() ? RedisTarget.embedded(properties.dataDir())
        : RedisTarget.external(properties.redis());
  }

  /**
   * @param redis where Redis is
   * @param properties the server's settings
   * @return the connected instance
   */
  @Bean(destroyMethod = "close")
  public Hourglass hourglass(RedisTarget redis, HourglassServerProperties properties) {
    return Hourglass.builder()
        .redisUri(redis.uri())
        .namespace(properties.namespace())
        .shards(properties.shards())
        .maxPayloadBytes(properties.maxPayloadBytes())
        .maxDelay(properties.maxDelay())
        .callbackAllowList(properties.callbackAllowList())
        .build();
  }

  /**
   * @param hourglass the instance
   * @param properties the server's settings
   * @return the running callback delivery: POSTs every due job that has a callback URL, signed when a secret is set
   */
  @Bean(destroyMethod = "close")
  public Worker callbackDelivery(Hourglass hourglass, HourglassServerProperties properties) {
    String secret = properties.callbackSigningSecret();
    if (secret == null) {
      log.info("Callbacks are unsigned: set --callback-secret (HOURGLASS_CALLBACK_SECRET) to sign them.");
    }
    if (properties.callbackAllowList().isEmpty()) {
      log.info("Callbacks may go to any host: set --callback-allow (HOURGLASS_CALLBACK_ALLOW) to restrict them.");
    }
    return hourglass.startCallbackDelivery(CallbackOptions.defaults().withSigningSecret(secret));
  }

  /** @return a listener that logs the port the server listens on (the actual one when 0 was asked) */
  @Bean
  public ApplicationListener<WebServerInitializedEvent> portAnnouncer() {
    return event -> log.info("Hourglass server listening on port {}", event.getWebServer().getPort());
  }
}
