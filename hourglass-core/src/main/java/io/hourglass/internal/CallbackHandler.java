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
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a callback job: POSTs its payload to its URL over HTTP/1.1, signed when a secret is set. A 2xx answer
 * returns normally (ack); anything else throws, so the dispatcher retries the job on its backoff. Thread-safe.
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

    CallbackHandler(CallbackOptions options, CallbackAllowList allowList, ScheduledExecutorService timer) {
        this(options, allowList, timer, InetAddress::getAllByName);
    }

    CallbackHandler(
            CallbackOptions options, CallbackAllowList allowList, ScheduledExecutorService timer, Lookup lookup) {
        this.options = options;
        this.timer = timer;
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

    /** A request ends within the timeout, connect to last byte; its job's lease covers that before it is sent. */
    @Override
    public long boundMs(Job job) {
        return options.timeout().toMillis();
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
        // The timeout bounds the whole request, connect to last byte, as the option promises; the client's own
        // timeouts bound each step only.
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> deadline = timer.schedule(
                () -> {
                    timedOut.set(true);
                    post.cancel();
                },
                options.timeout().toMillis(),
                TimeUnit.MILLISECONDS);
        int status;
        try {
            status = http.execute(post, response -> response.getCode());
        } catch (IOException e) {
            throw failure(job, e, timedOut.get());
        } finally {
            deadline.cancel(false);
        }
        if (status < 200 || status > 299) {
            throw new IOException("callback failed: HTTP " + status);
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
