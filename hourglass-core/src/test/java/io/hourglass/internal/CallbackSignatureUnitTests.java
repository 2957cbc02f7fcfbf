package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code v2} test vector of SECURITY.md ("Verifying callback signatures"), whose verifiers are checked on it. */
class CallbackSignatureUnitTests {
    private static final byte[] BODY = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    private static final String URL = "https://hooks.example.com/orders?x=1";

    @Test
    void theCanonicalStringIsOneLinePerFieldEndingWithTheBodysSha256() {
        assertThat(CallbackSignature.canonical(1700000000000L, "orders", "order-42", 2, URL, BODY))
                .isEqualTo("1700000000000\norders\norder-42\n2\nhttps://hooks.example.com/orders?x=1\n"
                        + "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
    }

    @Test
    void theTestVectorCarriesOneV2PerSecretCurrentFirst() {
        // Reference values: printf '1700000000000\norders\norder-42\n2\nhttps://hooks.example.com/orders?x=1\n%s' \
        //   "$(printf '{"a":1}' | sha256sum | cut -d' ' -f1)" | openssl dgst -sha256 -hmac <secret>
        assertThat(CallbackSignature.header(
                        List.of("0123456789abcdef", "fedcba9876543210"),
                        1700000000000L,
                        "orders",
                        "order-42",
                        2,
                        URL,
                        BODY))
                .isEqualTo("t=1700000000000"
                        + ",v2=43437d0da8a37c0542d4526cc8dd5e6d47167d4d3f66af6a0435f20420f03bb9"
                        + ",v2=db778bcb2743417416c55740afdbf0da7892b0e7b75f0b8a123ef783dae3a3c4");
    }

    @Test
    void anyChangeOfJobIdTopicAttemptOrUrlChangesTheSignature() {
        List<String> secret = List.of("0123456789abcdef");
        String base = CallbackSignature.header(secret, 1L, "orders", "a", 1, URL, BODY);
        assertThat(List.of(
                        CallbackSignature.header(secret, 1L, "orders", "b", 1, URL, BODY),
                        CallbackSignature.header(secret, 1L, "orderz", "a", 1, URL, BODY),
                        CallbackSignature.header(secret, 1L, "orders", "a", 2, URL, BODY),
                        CallbackSignature.header(secret, 1L, "orders", "a", 1, URL + "&y", BODY),
                        CallbackSignature.header(secret, 2L, "orders", "a", 1, URL, BODY)))
                .doesNotContain(base)
                .doesNotHaveDuplicates();
    }
}
