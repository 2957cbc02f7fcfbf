package io.hourglass.server.auth;

import java.util.regex.Pattern;

/**
 * The topics a token covers: {@code "*"} (all), {@code "notify-*"} (every topic that starts with {@code notify-} and
 * has at least one more character: {@code notify-email}, not {@code notify-} itself) or an exact name
 * ({@code "orders"}). A {@code *} stands for one or more characters, as in most glob dialects' use for a name's rest; a
 * token for {@code notify-} itself lists it by name.
 *
 * @param text the pattern as written
 */
record TopicPattern(String text) {
    /** A topic name, optionally followed by {@code *}, or {@code *} alone. */
    private static final Pattern SYNTAX = Pattern.compile("\\*|[A-Za-z0-9][A-Za-z0-9._-]{0,99}\\*?");

    /**
     * @param text the pattern
     * @param field where it was read, for the error message
     * @return the pattern
     * @throws IllegalArgumentException naming {@code field} when it is not a topic name with an optional {@code *}
     */
    static TopicPattern parse(String text, String field) {
        if (text == null || !SYNTAX.matcher(text).matches()) {
            throw new IllegalArgumentException(
                    field + ": must be \"*\", a topic name, or a topic name prefix followed by" + " \"*\", got "
                            + (text == null ? "null" : "'" + text + "'"));
        }
        return new TopicPattern(text);
    }

    /** @return whether {@code topic} is covered */
    boolean matches(String topic) {
        if (!text.endsWith("*")) {
            return topic.equals(text);
        }
        String prefix = text.substring(0, text.length() - 1);
        return topic.length() > prefix.length() && topic.startsWith(prefix);
    }
}
