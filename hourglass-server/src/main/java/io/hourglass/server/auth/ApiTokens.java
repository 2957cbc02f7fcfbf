package io.hourglass.server.auth;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The configured API tokens, read from JSON such as
 *
 * <pre>{@code
 * [{"token": "s3cr3t-0123456789abcdef", "topics": ["orders", "notify-*"], "rights": ["produce", "consume"]},
 *  {"token": "0p3r4t0r-0123456789abcdef", "topics": ["*"], "rights": ["admin"]}]
 * }</pre>
 *
 * Only SHA-256 digests of the secrets are kept; a presented token is compared with every one of them in constant time.
 * Immutable and thread-safe.
 */
public final class ApiTokens {
    /** Shortest token accepted: 16 characters. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** Printable ASCII without spaces, so that it fits an {@code Authorization: Bearer} header. */
    private static final Pattern TOKEN_SYNTAX = Pattern.compile("[\\x21-\\x7E]{" + MIN_TOKEN_LENGTH + ",}");

    private static final Set<String> FIELDS = Set.of("token", "topics", "rights");

    private final List<ApiToken> tokens;

    private ApiTokens(List<ApiToken> tokens) {
        this.tokens = List.copyOf(tokens);
    }

    /**
     * @param json the tokens as a JSON array
     * @param source the setting it came from ({@code tokens}, {@code tokens-file /etc/hourglass/tokens.json}), which
     *     starts every error message
     * @return the tokens
     * @throws IllegalArgumentException naming the source and the entry when the JSON is malformed, a token is shorter
     *     than {@value #MIN_TOKEN_LENGTH} characters or repeated, a topic pattern or right is unknown, or none is given
     */
    public static ApiTokens parse(String json, String source) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            // Only the position: Jackson's message may quote the text, which could be a secret.
            throw new IllegalArgumentException(source + ": malformed JSON"
                    + (e.getLocation() == null
                            ? ""
                            : " at line " + e.getLocation().getLineNr() + ", column "
                                    + e.getLocation().getColumnNr()));
        }
        if (root == null || !root.isArray() || root.isEmpty()) {
            throw new IllegalArgumentException(
                    source + ": must be a non-empty JSON array of {\"token\", \"topics\"," + " \"rights\"}");
        }
        List<ApiToken> tokens = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < root.size(); i++) {
            String entry = source + ": [" + i + "]";
            JsonNode node = root.get(i);
            checkFields(node, entry);
            String secret = secret(node.get("token"), entry + ".token");
            if (!seen.add(secret)) {
                throw new IllegalArgumentException(entry + ".token: the same token appears twice");
            }
            tokens.add(new ApiToken(
                    sha256(secret),
                    topics(node.get("topics"), entry + ".topics"),
                    rights(node.get("rights"), entry + ".rights")));
        }
        return new ApiTokens(tokens);
    }

    /**
     * @param others more tokens
     * @return these tokens and the others
     */
    public ApiTokens plus(ApiTokens others) {
        List<ApiToken> all = new ArrayList<>(tokens);
        all.addAll(others.tokens);
        return new ApiTokens(all);
    }

    /**
     * @param presented the token a request presented
     * @return the matching token; every configured token is compared, each in constant time, so that the time taken
     *     reveals nothing about the secrets
     */
    public Optional<ApiToken> find(String presented) {
        byte[] digest = sha256(presented);
        ApiToken found = null;
        for (ApiToken token : tokens) {
            if (token.hasDigest(digest) && found == null) {
                found = token;
            }
        }
        return Optional.ofNullable(found);
    }

    /** @return how many tokens are configured */
    public int size() {
        return tokens.size();
    }

    private static void checkFields(JsonNode node, String entry) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(entry + ": must be a JSON object {\"token\", \"topics\", \"rights\"}");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException(entry + "." + name + ": unknown property");
            }
        }
    }

    private static String secret(JsonNode node, String field) {
        if (node == null
                || !node.isTextual()
                || !TOKEN_SYNTAX.matcher(node.asText()).matches()) {
            throw new IllegalArgumentException(field + ": must be a string of at least " + MIN_TOKEN_LENGTH
                    + " printable ASCII characters without spaces");
        }
        return node.asText();
    }

    private static List<TopicPattern> topics(JsonNode node, String field) {
        List<TopicPattern> topics = new ArrayList<>();
        for (JsonNode t : nonEmptyArray(node, field, "topic patterns such as \"orders\", \"notify-*\" or \"*\"")) {
            topics.add(TopicPattern.parse(t.isTextual() ? t.asText() : null, field + "[" + topics.size() + "]"));
        }
        return topics;
    }

    private static Set<Right> rights(JsonNode node, String field) {
        Set<Right> rights = EnumSet.noneOf(Right.class);
        int i = 0;
        for (JsonNode r : nonEmptyArray(node, field, "rights: \"produce\", \"consume\", \"admin\", \"metrics\"")) {
            rights.add(Right.named(r.isTextual() ? r.asText() : String.valueOf(r), field + "[" + i++ + "]"));
        }
        return rights;
    }

    private static JsonNode nonEmptyArray(JsonNode node, String field, String ofWhat) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw new IllegalArgumentException(field + ": must be a non-empty array of " + ofWhat);
        }
        return node;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
