package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CallbackSignatureUnitTests {

    @Test
    void signsTimestampDotBodyWithHmacSha256() {
        // Reference value: printf '1700000000000.{"a":1}' | openssl dgst -sha256 -hmac '0123456789abcdef'
        String signature = CallbackHandler.signature(
                "0123456789abcdef", 1700000000000L, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        assertThat(signature).isEqualTo("t=1700000000000,v1=" + OPENSSL_REFERENCE);
    }

    private static final String OPENSSL_REFERENCE = "de32ced690ba7742b66a8b93053efa2a98f3a8fc16b2907325d41944cf17d735";
}
