package io.hourglass.server.auth;

import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One configured API token, as the server keeps it: the SHA-256 digest of the secret (never the secret itself), the
 * topics it covers and its rights. Immutable.
 */
public final class ApiToken {
    /** The request attribute under which the authenticated token is kept for the rest of the request. */
    public static final String REQUEST_ATTRIBUTE = "io.hourglass.server.auth.ApiToken";

    /** Every right on every topic: the caller when authentication is off. */
    public static final ApiToken UNRESTRICTED =
            new ApiToken(new byte[0], List.of(new TopicPattern("*")), EnumSet.allOf(Right.class));

    private final byte[] digest;
    private final List<TopicPattern> topics;
    private final Set<Right> rights;

    ApiToken(byte[] digest, List<TopicPattern> topics, Set<Right> rights) {
        this.digest = digest.clone();
        this.topics = List.copyOf(topics);
        this.rights = Set.copyOf(rights);
    }

    /** @return whether {@code presentedDigest} is this token's digest, compared in constant time */
    boolean hasDigest(byte[] presentedDigest) {
        return MessageDigest.isEqual(digest, presentedDigest);
    }

    /**
     * @param anyOf the rights of which one suffices
     * @param topic the topic of the request, or null for a request about every topic (e.g. the topic listing)
     * @return whether this token holds one of the rights ({@link Right#ADMIN} holds them all) and covers the topic; for
     *     a null topic, whether it covers any topic at all
     */
    public boolean allows(Set<Right> anyOf, String topic) {
        boolean hasRight = rights.contains(Right.ADMIN) || anyOf.stream().anyMatch(rights::contains);
        return hasRight && (topic == null || covers(topic));
    }

    /** @return whether one of the token's topic patterns matches {@code topic} */
    public boolean covers(String topic) {
        return topics.stream().anyMatch(p -> p.matches(topic));
    }

    /** @return whether the token covers every topic ({@code "*"}), so that it may read across topics */
    public boolean coversEveryTopic() {
        return topics.stream().anyMatch(p -> p.text().equals("*"));
    }

    /** @return the token's topics and rights, never its secret */
    @Override
    public String toString() {
        return "ApiToken[topics=" + topics.stream().map(TopicPattern::text).toList() + ", rights=" + rights + "]";
    }
}
