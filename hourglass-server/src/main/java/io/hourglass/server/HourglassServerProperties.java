package io.hourglass.server;

import io.hourglass.HourglassBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
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
 * @param maxPayloadBytes the largest payload a job may have, in bytes of its JSON text
 * @param maxDelayMs the longest delay (or distance of {@code runAt} ahead) accepted, or null for the library's
 * @param tokensFile a JSON file of API tokens, or null
 * @param tokens API tokens as JSON (from {@code HOURGLASS_TOKENS}), or null
 * @param insecure whether to run with an unauthenticated API on an external Redis
 * @param callbackSecret the key that signs callbacks, or null for unsigned callbacks
 * @param callbackAllow where callbacks may go (host names, {@code *.domain}, IPs, CIDRs); empty allows any host
 */
@ConfigurationProperties("hourglass")
public record HourglassServerProperties(
    String redis,
    @DefaultValue("./hourglass-data") Path dataDir,
    @DefaultValue(HourglassBuilder.DEFAULT_NAMESPACE) String namespace,
    @DefaultValue("" + HourglassBuilder.DEFAULT_SHARDS) int shards,
    @DefaultValue("" + HourglassBuilder.DEFAULT_MAX_PAYLOAD_BYTES) int maxPayloadBytes,
    Long maxDelayMs,
    Path tokensFile,
    String tokens,
    boolean insecure,
    String callbackSecret,
    String callbackAllow) {

  /** @return whether no Redis was configured, so the server runs its own */
  public boolean embeddedRedis() {
    return redis == null || redis.isBlank();
  }

  /** @return the longest delay accepted */
  public Duration maxDelay() {
    return maxDelayMs == null ? HourglassBuilder.DEFAULT_MAX_DELAY : Duration.ofMillis(maxDelayMs);
  }

  /** @return the callback allow-list's entries; empty allows any host */
  public List<String> callbackAllowList() {
    return splitList(callbackAllow);
  }

  /** @return the callback signing secret, or null when callbacks are unsigned */
  public String callbackSigningSecret() {
    return callbackSecret == null || callbackSecret.isBlank() ? null : callbackSecret.trim();
  }

  /**
   * @param commaSeparated e.g. {@code "api.example.com, 10.0.0.0/8"}, or null
   * @return the trimmed, non-empty entries
   */
  static List<String> splitList(String commaSeparated) {
    if (commaSeparated == null) {
      return List.of();
    }
    return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /** @return the settings, with the API tokens, the callback secret and a Redis password masked */
  @Override
  public String toString() {
    String shownRedis = redis == null ? null : redis.replaceAll("//([^:/@]*):[^@/]*@", "//$1:****@");
    return "HourglassServerProperties[redis=" + shownRedis + ", dataDir=" + dataDir + ", namespace=" + namespace
        + ", shards=" + shards + ", maxPayloadBytes=" + maxPayloadBytes + ", maxDelayMs=" + maxDelayMs
        + ", tokensFile=" + tokensFile + ", tokens=" + (tokens == null ? null : "****") + ", insecure=" + insecure
        + ", callbackSecret=" + (callbackSecret == null ? null : "****") + ", callbackAllow=" + callbackAllow + "]";
  }
}
