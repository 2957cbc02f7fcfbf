package io.hourglass.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A callback receiver's check of {@code Hourglass-Signature: t=<epoch ms>,v2=<hex>[,v2=<hex>]}, as SECURITY.md's Java
 * verifier gives it (with the clock as a parameter): HMAC-SHA256 keyed with a secret over the lines {@code t}, topic,
 * job id, attempt, URL and the body's SHA-256 in hex; any {@code v2} matching any secret passes, compared in constant
 * time, and the timestamp no more than five minutes from now.
 */
final class CallbackSignature {
    private CallbackSignature() {}

    static boolean verify(
            List<String> secrets,
            String header,
            String topic,
            String jobId,
            String attempt,
            String url,
            byte[] body,
            long nowMillis)
            throws GeneralSecurityException {
        String t = null;
        List<String> signatures = new ArrayList<>();
        for (String part : header.split(",")) {
            if (part.startsWith("t=")) t = part.substring(2);
            if (part.startsWith("v2=")) signatures.add(part.substring(3));
        }
        try {
            if (t == null || Math.abs(nowMillis - Long.parseLong(t)) > 5 * 60 * 1000) {
                return false;
            }
            String bodyHash = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(body));
            byte[] signed =
                    String.join("\n", t, topic, jobId, attempt, url, bodyHash).getBytes(StandardCharsets.UTF_8);
            for (String secret : secrets) {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                byte[] expected = mac.doFinal(signed);
                for (String signature : signatures) {
                    if (MessageDigest.isEqual(expected, HexFormat.of().parseHex(signature))) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    /** As {@link #verify(List, String, String, String, String, String, byte[], long)} for one received call. */
    static boolean verify(String secret, CallbackReceiver.Call call, String url, long nowMillis)
            throws GeneralSecurityException {
        return verify(
                List.of(secret),
                call.signature(),
                call.topic(),
                call.jobId(),
                Integer.toString(call.attempt()),
                url,
                call.body().getBytes(StandardCharsets.UTF_8),
                nowMillis);
    }
}
