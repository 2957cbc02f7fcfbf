package io.hourglass.server;

import io.hourglass.HourglassBuilder;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's settings, bound from the {@code hourglass.*} properties (which the command-line flags and
 * {@code HOURGLASS_*} variables set, see {@link ServerArguments}).
 *
 * @param redis the Redis URI, or null/blank for an embedded Redis in {@code dataDir} (the development default)
 * @param dataDir the embedded Redis's data folder (append-only file, pid file)
 * @param namespace the key namespace in Redis
 * @param shards shards per topic; every process of a namespace must use the same number
 */
@ConfigurationProperties("hourglass")
public record HourglassServerProperties(
    String redis,
    @DefaultValue("./hourglass-data") Path dataDir,
    @DefaultValue(HourglassBuilder.DEFAULT_NAMESPACE) String namespace,
    @DefaultValue("" + HourglassBuilder.DEFAULT_SHARDS) int shards) {

  /** @return whether no Redis was configured, so the server runs its own */
  public boolean embeddedRedis() {
    return redis == null || redis.isBlank();
  }
}
