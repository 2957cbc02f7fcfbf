package io.hourglass.internal;

import io.hourglass.CallbackOptions;
import io.hourglass.Job;
import io.hourglass.JobHandler;
import io.hourglass.validation.CallbackAllowList;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.utils.DateUtils;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a callback job: POSTs its payload to its URL over HTTP/1.1, signed when a secret is set. A 2xx answer
 * returns normally (ack); anything else throws, so the dispatcher retries the job on its backoff, except a {@code 429}
 * or {@code 503} with {@code Retry-After}, whose failure carries a {@link Deferral} (the job waits that long, no
 * attempt charged, up to {@link CallbackOptions#maxDeferrals()}). Every {@code 429} and {@code 503} narrows the topic's
 * window of requests in flight ({@link CallbackPacing}), every 2xx widens it. A job's own dispatch deadline replaces
 * the timeout for its request. Thread-safe.
 *
 * <p>Apache HttpClient rather than {@code java.net.http}: every new connection resolves the host through
 * {@link CheckedResolver}, which checks every address against the allow-list and hands the client exactly the addresses
 * it checked, so a DNS answer that changes after the check (rebinding) cannot aim the request inward. The JDK's client
 * has no such hook (its resolver SPI is JVM-wide and Java 18+). Redirects are not followed (they could lead anywhere),
 * no proxy is used, and nothing the receiver answers but its status code reaches the job's error.
 */
final class CallbackHandler implements JobHandler, BoundedHandler, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CallbackHandler.class);

    /** Looks a host up; {@link InetAddress#getAllByName} outside tests. */
    @FunctionalInterface
    interface Lookup {
        InetAddress[] addressesOf(String host) throws UnknownHostException;
    }

    private final CallbackOptions options;
    private final ScheduledExecutorService timer;
    private final List<String> secrets = new ArrayList<>();
    private final CloseableHttpClient http;
    private final CallbackPacing pacing;

    CallbackHandler(CallbackOptions options, CallbackAllowList allowList, ScheduledExecutorService timer) {
        this(options, allowList, timer, InetAddress::getAllByName);
    }

    CallbackHandler(
            CallbackOptions options, CallbackAllowList allowList, ScheduledExecutorService timer, Lookup lookup) {
        this.options = options;
        this.timer = timer;
        this.pacing = new CallbackPacing(options.concurrency());
        if (options.signingSecret() != null) {
            secrets.add(options.signingSecret());
        }
        if (options.nextSigningSecret() != null) {
            secrets.add(options.nextSigningSecret());
        }
        Timeout timeout = Timeout.of(options.timeout());
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(new CheckedResolver(allowList, lookup))
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(timeout)
                                .setSocketTimeout(timeout)
                                .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                                .build())
                        .setMaxConnTotal(options.concurrency())
                        .setMaxConnPerRoute(options.concurrency())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(timeout)
                        .setResponseTimeout(timeout)
                        .setRedirectsEnabled(false)
                        .build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .evictExpiredConnections()
                .evictIdleConnections(TimeValue.ofSeconds(30))
                .setUserAgent("Hourglass")
                .build();
    }

    /**
     * A request ends within its timeout ({@link #requestTimeoutMs}: the job's own dispatch deadline, or the
     * dispatcher's), connect to last byte; its job's lease covers that before it is sent.
     */
    @Override
    public long boundMs(Job job) {
        return requestTimeoutMs(job);
    }

    @Override
    public void handle(Job job) throws IOException, InterruptedException {
        URI url = job.callbackUrl();
        HttpPost post = new HttpPost(url);
        post.setHeader("Content-Type", options.contentType());
        post.setHeader("Hourglass-Job-Id", job.id());
        post.setHeader("Hourglass-Topic", job.topic());
        post.setHeader("Hourglass-Attempt", Integer.toString(job.attempt()));
        // The original due time, the same on every attempt (a receiver's "when was this meant for"), and this
        // attempt's own, later on a retry. Neither is signed: the canonical string stays what SECURITY.md says.
        post.setHeader("Hourglass-Due-At", job.originalDueAt().toString());
        post.setHeader("Hourglass-Attempt-Due-At", job.dueAt().toString());
        if (!secrets.isEmpty()) {
            post.setHeader(
                    CallbackSignature.HEADER,
                    CallbackSignature.header(
                            secrets,
                            System.currentTimeMillis(),
                            job.topic(),
                            job.id(),
                            job.attempt(),
                            url.toString(),
                            job.payload()));
        }
        post.setEntity(new ByteArrayEntity(job.payload(), null));
        long timeoutMs = requestTimeoutMs(job);
        if (timeoutMs != options.timeout().toMillis()) {
            Timeout timeout = Timeout.ofMilliseconds(timeoutMs);
            post.setConfig(RequestConfig.custom()
                    .setConnectionRequestTimeout(timeout)
                    .setResponseTimeout(timeout)
                    .setRedirectsEnabled(false)
                    .build());
        }
        CallbackPacing.Window window = pacing.of(job.topic());
        long generation = window.generation();
        // The timeout bounds the whole request, connect to last byte, as the option promises; the client's own
        // timeouts bound each step only.
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> deadline = timer.schedule(
                () -> {
                    timedOut.set(true);
                    post.cancel();
                },
                timeoutMs,
                TimeUnit.MILLISECONDS);
        Answer answer;
        try {
            answer = http.execute(post, response -> {
                Header retryAfter = response.getFirstHeader(HttpHeaders.RETRY_AFTER);
                return new Answer(response.getCode(), retryAfter == null ? null : retryAfter.getValue());
            });
        } catch (IOException e) {
            throw failure(job, e, timedOut.get());
        } finally {
            deadline.cancel(false);
        }
        int status = answer.status();
        if (status == 429 || status == 503) {
            window.throttled(generation);
            long delayMs = retryAfterMs(answer.retryAfter(), System.currentTimeMillis());
            if (delayMs >= 0) {
                throw new IOException("callback failed: HTTP " + status, new Deferral(delayMs, options.maxDeferrals()));
            }
        }
        if (status < 200 || status > 299) {
            throw new IOException("callback failed: HTTP " + status);
        }
        window.succeeded();
    }

    /** The per-topic windows of this dispatcher's requests in flight, for its topic workers to claim within. */
    CallbackPacing pacing() {
        return pacing;
    }

    /**
     * How long the job's request may take, ms: its own dispatch deadline, cut to the dispatcher's maximum, or the
     * dispatcher's timeout when it has none.
     */
    long requestTimeoutMs(Job job) {
        long own = job instanceof JobContext c ? c.record().dispatchDeadlineMs() : 0;
        return own > 0
                ? Math.min(own, options.maxDispatchDeadline().toMillis())
                : options.timeout().toMillis();
    }

    /**
     * The wait a {@code Retry-After} value asks for, ms from {@code nowMs}, cut to
     * {@link CallbackOptions#MAX_RETRY_AFTER}: delay-seconds, or an HTTP date (IMF-fixdate, the form RFC 9110 has
     * senders use, read by HttpClient's {@link DateUtils}); 0 for a date already past; -1 when the value is absent or
     * neither.
     */
    static long retryAfterMs(String value, long nowMs) {
        if (value == null) {
            return -1;
        }
        String v = value.trim();
        long ms;
        if (!v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            // Digits beyond a long's range are a wait far beyond the cap.
            ms = v.length() > 12 ? Long.MAX_VALUE : Long.parseLong(v) * 1000;
        } else {
            Instant at = DateUtils.parseStandardDate(v);
            if (at == null) {
                return -1;
            }
            ms = Math.max(0, at.toEpochMilli() - nowMs);
        }
        return Math.min(ms, CallbackOptions.MAX_RETRY_AFTER.toMillis());
    }

    /** A receiver's answer: its status and its {@code Retry-After} header (null when absent). */
    private record Answer(int status, String retryAfter) {}

    /**
     * The cause of the failure a {@code 429} or {@code 503} with {@code Retry-After} throws: the job is deferred by
     * that long without an attempt being charged, unless it was deferred {@code maxDeferrals} times already; then the
     * failure is a failed attempt like any other, its message the job's error.
     */
    static final class Deferral extends Exception {
        private static final long serialVersionUID = 1L;

        private final long delayMs;
        private final int maxDeferrals;

        Deferral(long delayMs, int maxDeferrals) {
            super("Retry-After: " + delayMs + " ms", null, false, false);
            this.delayMs = delayMs;
            this.maxDeferrals = maxDeferrals;
        }

        /** The deferral a handler's failure asks for, or null when it is not one. */
        static Deferral of(Throwable failure) {
            return failure instanceof IOException && failure.getCause() instanceof Deferral d ? d : null;
        }

        /** How long the receiver asked to wait, ms, at most {@link CallbackOptions#MAX_RETRY_AFTER}. */
        long delayMs() {
            return delayMs;
        }

        /** How many times a job may be deferred before such an answer counts as a failed attempt. */
        int maxDeferrals() {
            return maxDeferrals;
        }
    }

    /**
     * What a producer may learn from a job's last error: that the address was refused (and why, naming only the host it
     * gave), that the request timed out, or that no HTTP answer came; never the receiver's words, which would let a
     * producer read internal services through the error.
     */
    private static IOException failure(Job job, IOException e, boolean timedOut) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("callback interrupted");
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RefusedAddressException refused) {
                return new IOException("callback not sent: " + refused.getMessage());
            }
        }
        log.debug("Callback of job {} in topic {} failed", job.id(), job.topic(), e);
        if (timedOut || e instanceof InterruptedIOException) {
            return new IOException("callback failed: timed out");
        }
        if (e instanceof UnknownHostException) {
            return new IOException("callback failed: host does not resolve");
        }
        return new IOException("callback failed: no HTTP answer");
    }

    @Override
    public void close() {
        try {
            http.close();
        } catch (IOException e) {
            log.debug("Closing the callback HTTP client failed", e);
        }
    }

    /** Thrown by the resolver when an address is refused, so that the reason reaches the job's error intact. */
    static final class RefusedAddressException extends UnknownHostException {
        private static final long serialVersionUID = 1L;

        RefusedAddressException(String reason) {
            super(reason);
        }
    }

    /**
     * Resolves a host for a new connection and refuses it unless every address passes the allow-list; the client
     * connects only to the addresses returned here.
     */
    static final class CheckedResolver implements DnsResolver {
        private final CallbackAllowList allowList;
        private final Lookup lookup;

        CheckedResolver(CallbackAllowList allowList, Lookup lookup) {
            this.allowList = allowList;
            this.lookup = lookup;
        }

        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            InetAddress[] addresses = lookup.addressesOf(bare);
            String refusal = allowList.refusal(bare, addresses);
            if (refusal != null) {
                throw new RefusedAddressException(refusal);
            }
            return addresses.clone();
        }

        @Override
        public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
            List<InetSocketAddress> endpoints = new ArrayList<>();
            for (InetAddress address : resolve(host)) {
                endpoints.add(new InetSocketAddress(address, port));
            }
            return endpoints;
        }

        @Override
        public String resolveCanonicalHostname(String host) throws UnknownHostException {
            // Used only for Kerberos/SPNEGO, which callbacks never do; answering the name itself avoids a lookup.
            return host;
        }
    }
}
