package io.hourglass.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the API asks for bearer tokens, and which ones it accepts. Authentication is on whenever tokens are
 * configured. Without tokens it is off only on the embedded development Redis, or when the operator explicitly accepted
 * it ({@code --insecure}); on an external Redis without tokens the server refuses to start, since anyone who can reach
 * the port could then read, schedule and delete every job. Immutable and thread-safe.
 */
public final class ApiAccess {
    private final ApiTokens tokens;
    private final String warning;

    private ApiAccess(ApiTokens tokens, String warning) {
        this.tokens = tokens;
        this.warning = warning;
    }

    /**
     * @param tokensJson tokens as JSON (the {@code HOURGLASS_TOKENS} variable), or null
     * @param tokensFile a JSON file of tokens ({@code --tokens-file}), or null
     * @param embeddedRedis whether the server runs its own development Redis
     * @param insecure whether the operator accepts an unauthenticated API on an external Redis
     * @return the access rules
     * @throws IllegalArgumentException naming the setting when the tokens cannot be read, or when no tokens are
     *     configured for an external Redis and {@code insecure} was not given
     */
    public static ApiAccess configure(String tokensJson, Path tokensFile, boolean embeddedRedis, boolean insecure) {
        ApiTokens tokens = null;
        if (tokensJson != null && !tokensJson.isBlank()) {
            tokens = ApiTokens.parse(tokensJson, "tokens");
        }
        if (tokensFile != null) {
            ApiTokens fromFile = ApiTokens.parse(read(tokensFile), "tokens-file (" + tokensFile + ")");
            tokens = tokens == null ? fromFile : tokens.plus(fromFile);
        }
        if (tokens != null) {
            return new ApiAccess(tokens, null);
        }
        if (embeddedRedis) {
            return new ApiAccess(
                    null,
                    "The HTTP API is unauthenticated: no API tokens are configured (--tokens-file,"
                            + " HOURGLASS_TOKENS). This is the development default with the embedded Redis; configure"
                            + " tokens before"
                            + " anyone else can reach this port.");
        }
        if (insecure) {
            return new ApiAccess(
                    null,
                    "The HTTP API is unauthenticated (--insecure): anyone who can reach this port can"
                            + " schedule, read and delete every job of the configured Redis. Configure API tokens"
                            + " (--tokens-file,"
                            + " HOURGLASS_TOKENS) instead.");
        }
        throw new IllegalArgumentException("tokens: refusing to start: no API tokens are configured and the Redis is"
                + " external (--redis), so anyone who can reach the port could schedule, read and delete its jobs. Give"
                + " tokens with --tokens-file <path> or HOURGLASS_TOKENS, or pass --insecure (HOURGLASS_INSECURE=true)"
                + " to"
                + " run without authentication anyway.");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("tokens-file: cannot read " + file + ": " + e, e);
        }
    }

    /** @return whether requests must present a bearer token */
    public boolean enabled() {
        return tokens != null;
    }

    /** @return the warning to log at startup when the API is unauthenticated, else empty */
    public Optional<String> startupWarning() {
        return Optional.ofNullable(warning);
    }

    /**
     * @param presented the token of a request's {@code Authorization: Bearer} header
     * @return the configured token it matches, or empty; {@link ApiToken#UNRESTRICTED} when authentication is off
     */
    public Optional<ApiToken> authenticate(String presented) {
        if (tokens == null) {
            return Optional.of(ApiToken.UNRESTRICTED);
        }
        return presented == null ? Optional.empty() : tokens.find(presented);
    }
}
