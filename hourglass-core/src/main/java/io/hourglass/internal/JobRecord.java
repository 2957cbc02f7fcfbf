package io.hourglass.internal;

import io.hourglass.Backoff;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A job record as stored in the {@code jobs} hash: an ASCII header
 * {@code due|attempt|maxAttempts|leaseMs|receipt|backoff|callbackUrl}, a newline, then the payload bytes. The Lua
 * side of this format is {@code decode_job}/{@code encode_job} in {@code common.lua}.
 */
public record JobRecord(long dueMs, int attempt, int maxAttempts, long leaseMs, String receipt, String backoff,
    String callbackUrl, byte[] payload) {

  public static JobRecord decode(byte[] raw) {
    int nl = 0;
    while (nl < raw.length && raw[nl] != '\n') {
      nl++;
    }
    if (nl == raw.length) {
      throw new IllegalStateException("job record without a header line");
    }
    String[] f = new String(raw, 0, nl, StandardCharsets.US_ASCII).split("\\|", -1);
    if (f.length != 7) {
      throw new IllegalStateException("job record header has " + f.length + " fields, expected 7");
    }
    return new JobRecord(Long.parseLong(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
        Long.parseLong(f[3]), f[4], f[5], f[6], Arrays.copyOfRange(raw, nl + 1, raw.length));
  }

  public Backoff backoffOrDefault(Backoff fallback) {
    return backoff.isEmpty() ? fallback : Backoff.parse(backoff);
  }

  public URI callbackUri() {
    return callbackUrl.isEmpty() ? null : URI.create(callbackUrl);
  }

  public Lane lane() {
    return callbackUrl.isEmpty() ? Lane.WORKER : Lane.CALLBACK;
  }
}
