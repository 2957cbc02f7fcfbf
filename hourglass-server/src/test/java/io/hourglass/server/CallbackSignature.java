package io.hourglass.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A callback receiver's check of {@code Hourglass-Signature: t=<epoch ms>,v1=<hex>}, exactly as the README's Java
 * recipe gives it (with the clock as a parameter): HMAC-SHA256 keyed with the secret over {@code "<t>." + body},
 * compared in constant time, and the timestamp no more than five minutes from now.
 */
final class CallbackSignature {
    private CallbackSignature() {}

    static boolean verify(String secret, String header, byte[] body, long nowMillis) throws GeneralSecurityException {
        String t = null, v1 = null;
        for (String part : header.split(",")) {
            if (part.startsWith("t=")) t = part.substring(2);
            if (part.startsWith("v1=")) v1 = part.substring(3);
        }
        try {
            if (t == null || v1 == null || Math.abs(nowMillis - Long.parseLong(t)) > 5 * 60 * 1000) {
                return false;
            }
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
            return MessageDigest.isEqual(mac.doFinal(body), HexFormat.of().parseHex(v1));
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }
}
