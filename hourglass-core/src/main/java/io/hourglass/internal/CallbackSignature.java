package io.hourglass.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Hourglass-Signature} header, version {@code v2}: {@code t=<epoch ms>,v2=<hex>[,v2=<hex>]}, one {@code v2}
 * per secret (the current one, then the next one during a rotation). Each is the lowercase hex of HMAC-SHA256, keyed
 * with the secret's UTF-8 bytes, over the UTF-8 of the canonical string
 *
 * <pre>
 * t \n topic \n id \n attempt \n url \n hex(SHA-256(body))
 * </pre>
 *
 * <p>(no trailing newline). Topic and id cannot hold a newline (their checks allow letters, digits and {@code ._:-})
 * nor can a parsed URL, so the lines cannot be shifted into each other; hashing the body keeps the string one line per
 * field for receivers in any language. Binding id, topic, attempt and URL means that a signature is valid for one
 * delivery of one job to one URL only. SECURITY.md documents this for receivers; change both together.
 */
final class CallbackSignature {
    static final String HEADER = "Hourglass-Signature";

    private CallbackSignature() {}

    /**
     * @param secrets one or two secrets, current first
     * @param timestampMs the time of signing, epoch ms
     * @return the header's value
     */
    static String header(
            List<String> secrets, long timestampMs, String topic, String id, int attempt, String url, byte[] body) {
        byte[] canonical = canonical(timestampMs, topic, id, attempt, url, body).getBytes(StandardCharsets.UTF_8);
        StringBuilder header = new StringBuilder("t=").append(timestampMs);
        for (String secret : secrets) {
            header.append(",v2=").append(hmacHex(secret, canonical));
        }
        return header.toString();
    }

    static String canonical(long timestampMs, String topic, String id, int attempt, String url, byte[] body) {
        return timestampMs + "\n" + topic + "\n" + id + "\n" + attempt + "\n" + url + "\n" + sha256Hex(body);
    }

    private static String sha256Hex(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static String hmacHex(String secret, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
