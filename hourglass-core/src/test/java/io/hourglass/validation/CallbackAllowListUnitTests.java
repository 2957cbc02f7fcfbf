package io.hourglass.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallbackAllowListUnitTests {

    private static String refusal(List<String> entries, String url) {
        return new CallbackAllowList(entries).refusal(URI.create(url));
    }

    @Test
    void anEmptyListAllowsEverything() {
        assertThat(refusal(List.of(), "http://169.254.169.254/latest/meta-data"))
                .isNull();
    }

    @Test
    void namesMatchExactlyOrAsSubdomains() {
        List<String> list = List.of("hooks.example.com", "*.partner.org");
        assertThat(refusal(list, "https://hooks.example.com/x")).isNull();
        assertThat(refusal(list, "https://HOOKS.example.com/x")).isNull();
        assertThat(refusal(list, "https://a.b.partner.org/x")).isNull();
        assertThat(refusal(list, "https://partner.org.evil.com/x")).contains("not in the callback allow-list");
        assertThat(refusal(list, "https://example.com/x")).contains("not in the callback allow-list");
    }

    @Test
    void addressesMustAllLieInARange() {
        assertThat(refusal(List.of("127.0.0.0/8"), "http://127.0.0.1:8080/x")).isNull();
        assertThat(refusal(List.of("127.0.0.0/8"), "http://localhost:8080/x")).isNull();
        assertThat(refusal(List.of("10.0.0.0/8"), "http://127.0.0.1/x")).contains("resolves to 127.0.0.1");
        assertThat(refusal(List.of("10.1.2.3"), "http://10.1.2.3/x")).isNull();
        assertThat(refusal(List.of("10.1.2.3"), "http://10.1.2.4/x")).isNotNull();
        assertThat(refusal(List.of("::1/128"), "http://[::1]:9/x")).isNull();
        assertThat(refusal(List.of("2001:db8::/32"), "http://[::1]:9/x")).isNotNull();
        assertThat(refusal(List.of("10.0.0.0/8"), "http://no-such-host.invalid/x"))
                .contains("does not resolve");
    }

    @Test
    void malformedEntriesAreRefusedByName() {
        for (String bad : List.of("", "10.0.0.0/33", "http://x", "a b", "10.0.0.0/x")) {
            assertThatThrownBy(() -> new CallbackAllowList(List.of(bad)))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("callbackAllowList:");
        }
    }
}
