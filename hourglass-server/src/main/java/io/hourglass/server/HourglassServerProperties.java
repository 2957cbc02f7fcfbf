package io.hourglass.server;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's own settings, bound from the {@code hourglass.*} properties (which the command-line flags and
 * {@code HOURGLASS_*} variables set, see {@link ServerArguments}). The settings of Hourglass itself (namespace, shards,
 * limits, callbacks) are the starter's {@code hourglass.*} properties, which {@link StarterPropertiesMapping} derives
 * from the flags.
 *
 * @param redis the Redis URI, or null/blank for an embedded Redis in {@code dataDir} (the development default)
 * @param dataDir the embedded Redis's data folder (append-only file, pid file)
 * @param tokensFile a JSON file of API tokens, or null
 * @param tokens API tokens as JSON (from {@code HOURGLASS_TOKENS}), or null
 * @param insecure whether to run with an unauthenticated API on an external Redis
 */
@ConfigurationProperties("hourglass")
public record HourglassServerProperties(
        String redis,
        @DefaultValue("./hourglass-data") Path dataDir,
        Path tokensFile,
        String tokens,
        boolean insecure) {

    /** @return whether no Redis was configured, so the server runs its own */
    public boolean embeddedRedis() {
        return redis == null || redis.isBlank();
    }

    /** @return the settings, with the API tokens and a Redis password masked */
    @Override
    public String toString() {
        String shownRedis = redis == null ? null : redis.replaceAll("//([^:/@]*):[^@/]*@", "//$1:****@");
        return "HourglassServerProperties[redis=" + shownRedis + ", dataDir=" + dataDir + ", tokensFile=" + tokensFile
                + ", tokens=" + (tokens == null ? null : "****") + ", insecure=" + insecure + "]";
    }
}
