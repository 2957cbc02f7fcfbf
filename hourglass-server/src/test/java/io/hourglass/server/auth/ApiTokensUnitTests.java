package io.hourglass.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiTokensUnitTests {
    private static final ApiTokens TOKENS = ApiTokens.parse("""
      [{"token": "producer-0123456789", "topics": ["orders", "notify-*"], "rights": ["produce"]},
       {"token": "worker-0123456789", "topics": ["orders"], "rights": ["consume"]},
       {"token": "operator-0123456789", "topics": ["*"], "rights": ["admin"]}]""", "tokens");

    @Test
    void findsATokenOnlyByItsWholeSecret() {
        assertThat(TOKENS.size()).isEqualTo(3);
        assertThat(TOKENS.find("producer-0123456789")).isPresent();
        assertThat(TOKENS.find("producer-012345678")).isEmpty();
        assertThat(TOKENS.find("producer-01234567890")).isEmpty();
        assertThat(TOKENS.find("")).isEmpty();
    }

    @Test
    void aTokenHoldsItsRightsOnItsTopicsOnly() {
        ApiToken producer = TOKENS.find("producer-0123456789").orElseThrow();

        assertThat(producer.allows(Set.of(Right.PRODUCE), "orders")).isTrue();
        assertThat(producer.allows(Set.of(Right.PRODUCE), "notify-sms")).isTrue();
        assertThat(producer.allows(Set.of(Right.PRODUCE), "notify-")).isFalse();
        assertThat(producer.allows(Set.of(Right.PRODUCE), "notify")).isFalse();
        assertThat(producer.allows(Set.of(Right.PRODUCE), "orders-eu")).isFalse();
        assertThat(producer.allows(Set.of(Right.CONSUME), "orders")).isFalse();
        assertThat(producer.allows(Set.of(Right.PRODUCE, Right.CONSUME), "orders"))
                .isTrue();
        assertThat(producer.allows(Set.of(Right.ADMIN), "orders")).isFalse();
        assertThat(producer.allows(Set.of(Right.PRODUCE), null)).isTrue();
    }

    @Test
    void adminHoldsEveryRight() {
        ApiToken operator = TOKENS.find("operator-0123456789").orElseThrow();

        for (Right right : Right.values()) {
            assertThat(operator.allows(EnumSet.of(right), "anything")).isTrue();
        }
        assertThat(operator.toString()).doesNotContain("operator-0123456789");
    }

    @Test
    void theCallerOfAnUnauthenticatedApiMayDoAnything() {
        assertThat(ApiToken.UNRESTRICTED.allows(Set.of(Right.ADMIN), "x")).isTrue();
    }

    @Test
    void refusesMalformedTokensNamingTheEntryWithoutEchoingSecrets() {
        assertRefused("not json {", "tokens: malformed JSON at line 1");
        assertRefused("[{\"token\": s3cr3t-s3cr3t-s3cr3t}]", "tokens: malformed JSON");
        assertRefused("[]", "tokens: must be a non-empty JSON array");
        assertRefused("{}", "tokens: must be a non-empty JSON array");
        assertRefused("[5]", "tokens: [0]: must be a JSON object");
        assertRefused(
                "[{\"token\": \"short\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]",
                "tokens: [0].token: must be a string of at least 16");
        assertRefused(
                "[{\"token\": \"with a space 0123456\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]",
                "tokens: [0].token:");
        assertRefused("[{\"topics\": [\"*\"], \"rights\": [\"admin\"]}]", "tokens: [0].token:");
        assertRefused(
                "[{\"token\": \"0123456789abcdef\", \"topics\": [], \"rights\": [\"admin\"]}]",
                "tokens: [0].topics: must be a non-empty array");
        assertRefused(
                "[{\"token\": \"0123456789abcdef\", \"topics\": [\"a b\"], \"rights\": [\"admin\"]}]",
                "tokens: [0].topics[0]: must be");
        assertRefused(
                "[{\"token\": \"0123456789abcdef\", \"topics\": [\"*a\"], \"rights\": [\"admin\"]}]",
                "tokens: [0].topics[0]: must be");
        assertRefused(
                "[{\"token\": \"0123456789abcdef\", \"topics\": [\"*\"], \"rights\": [\"root\"]}]",
                "tokens: [0].rights[0]: must be produce, consume, admin or metrics, got 'root'");
        assertRefused(
                "[{\"token\": \"0123456789abcdef\", \"topics\": [\"*\"], \"rights\": \"admin\"}]",
                "tokens: [0].rights: must be a non-empty array");
        assertRefused(
                "[{\"token\": \"0123456789abcdef\", \"topics\": [\"*\"], \"rights\": [\"admin\"], \"x\": 1}]",
                "tokens: [0].x: unknown property");
        assertRefused(
                "[{\"token\": \"0123456789abcdef\", \"topics\": [\"*\"], \"rights\": [\"admin\"]},"
                        + "{\"token\": \"0123456789abcdef\", \"topics\": [\"a\"], \"rights\": [\"produce\"]}]",
                "tokens: [1].token: the same token appears twice");
    }

    private static void assertRefused(String json, String messageStart) {
        assertThatThrownBy(() -> ApiTokens.parse(json, "tokens"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(messageStart)
                .hasMessageNotContaining("s3cr3t")
                .hasMessageNotContaining("0123456789abcdef");
    }

    @Test
    void authenticationIsOffOnlyWithoutTokensOnTheEmbeddedRedisOrWhenInsecure() {
        String json = "[{\"token\": \"0123456789abcdef\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]";

        assertThat(ApiAccess.configure(json, null, false, false).enabled()).isTrue();
        assertThat(ApiAccess.configure(json, null, true, true).enabled()).isTrue();
        assertThat(ApiAccess.configure(json, null, true, true).startupWarning()).isEmpty();
        assertThat(ApiAccess.configure(null, null, true, false).enabled()).isFalse();
        assertThat(ApiAccess.configure(null, null, true, false).startupWarning())
                .hasValueSatisfying(warning ->
                        assertThat(warning).contains("unauthenticated").contains("development default"));
        assertThat(ApiAccess.configure(null, null, false, true).startupWarning())
                .hasValueSatisfying(warning ->
                        assertThat(warning).contains("unauthenticated").contains("--insecure"));
        assertThatThrownBy(() -> ApiAccess.configure(null, null, false, false))
                .hasMessageStartingWith("tokens: refusing to start");
        assertThatThrownBy(() -> ApiAccess.configure(" ", null, false, false))
                .hasMessageStartingWith("tokens: refusing to start");
    }

    @Test
    void aStarStandsForOneOrMoreCharacters() {
        TopicPattern notify = TopicPattern.parse("notify-*", "topics[0]");
        assertThat(notify.matches("notify-email")).isTrue();
        assertThat(notify.matches("notify-")).isFalse();
        assertThat(notify.matches("notify")).isFalse();
        assertThat(TopicPattern.parse("*", "topics[0]").matches("orders")).isTrue();
        assertThat(TopicPattern.parse("notify-", "topics[0]").matches("notify-"))
                .isTrue();
    }
}
