package io.hourglass.internal;

import io.hourglass.CallbackOptions;
import io.hourglass.Job;
import io.hourglass.JobHandler;
import io.hourglass.validation.CallbackAllowList;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Delivers a callback job: checks its URL against the allow-list (after a fresh DNS lookup), then POSTs its
 * payload there, signed when a secret is set. A 2xx answer returns normally (ack); anything else throws, so the
 * dispatcher retries the job on its backoff. Redirects are not followed: they could lead outside the allow-list.
 */
final class CallbackHandler implements JobHandler {
    static final String SIGNATURE_HEADER = "Hourglass-Signature";

    private final CallbackOptions options;
    private final CallbackAllowList allowList;
    private final HttpClient http;

    CallbackHandler(CallbackOptions options, CallbackAllowList allowList) {
        this.options = options;
        this.allowList = allowList;
        this.http = HttpClient.newBuilder()
                .connectTimeout(options.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public void handle(Job job) throws IOException, InterruptedException {
        URI url = job.callbackUrl();
        String refusal = allowList.refusal(url);
        if (refusal != null) {
            throw new IOException("callback not sent: " + refusal);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(options.timeout())
                .header("Content-Type", options.contentType())
                .header("Hourglass-Job-Id", job.id())
                .header("Hourglass-Topic", job.topic())
                .header("Hourglass-Attempt", Integer.toString(job.attempt()))
                .header("Hourglass-Due-At", job.dueAt().toString())
                .POST(HttpRequest.BodyPublishers.ofByteArray(job.payload()));
        if (options.signingSecret() != null) {
            request.header(
                    SIGNATURE_HEADER, signature(options.signingSecret(), System.currentTimeMillis(), job.payload()));
        }
        HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            throw new IOException("callback " + url + " answered HTTP " + status);
        }
    }

    /** {@code t=<timestampMs>,v1=<hex HMAC-SHA256(secret, "<timestampMs>." + body)>}. */
    static String signature(String secret, long timestampMs, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestampMs + ".").getBytes(StandardCharsets.US_ASCII));
            return "t=" + timestampMs + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
