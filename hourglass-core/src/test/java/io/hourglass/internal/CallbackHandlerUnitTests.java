package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.CallbackOptions;
import io.hourglass.Job;
import io.hourglass.validation.CallbackAllowList;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The callback handler against a real local TCP receiver: where it connects, what it sends, and what of the answer
 * reaches the job's error.
 */
class CallbackHandlerUnitTests {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final AtomicReference<String> answer =
            new AtomicReference<>("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
    private ServerSocket server;
    private Thread acceptor;

    @BeforeEach
    void startReceiver() throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    String request = readRequest(s.getInputStream());
                    requests.add(request);
                    String reply = answer.get();
                    if (reply == null) {
                        Thread.sleep(5_000);
                        continue;
                    }
                    OutputStream out = s.getOutputStream();
                    out.write(reply.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                } catch (IOException | InterruptedException e) {
                    // closed
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        acceptor.interrupt();
        timer.shutdownNow();
    }

    /** Headers, then as many body bytes as Content-Length says. */
    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(
                        line.substring("content-length:".length()).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private CallbackHandler handler(List<String> allow, CallbackHandler.Lookup lookup, Duration timeout) {
        return new CallbackHandler(
                CallbackOptions.builder().timeout(timeout).build(), new CallbackAllowList(allow), timer, lookup);
    }

    private Job job(String host) {
        URI url = URI.create("http://" + host + ":" + server.getLocalPort() + "/hook");
        return new Job() {
            public String id() {
                return "j1";
            }

            public String topic() {
                return "t";
            }

            public byte[] payload() {
                return "{}".getBytes(StandardCharsets.UTF_8);
            }

            public String payloadAsString() {
                return "{}";
            }

            public int attempt() {
                return 1;
            }

            public int maxAttempts() {
                return 3;
            }

            public Instant dueAt() {
                return Instant.ofEpochMilli(1_700_000_000_000L);
            }

            public URI callbackUrl() {
                return url;
            }

            public Instant leaseUntil() {
                return Instant.now().plusSeconds(30);
            }

            public Instant extendLease(Duration lease) {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Test
    void eachConnectionGoesToTheAddressesJustCheckedSoARebindingIsRefused() throws Exception {
        AtomicReference<InetAddress> dns = new AtomicReference<>(InetAddress.getByName("127.0.0.1"));
        // "rebind.invalid" never resolves in real DNS: the request can reach the receiver only through the
        // checked resolution.
        try (CallbackHandler h = handler(List.of("127.0.0.1"), host -> new InetAddress[] {dns.get()}, ofSeconds(5))) {
            h.handle(job("rebind.invalid"));
            assertThat(requests).hasSize(1);
            assertThat(requests.get(0)).contains("Host: rebind.invalid:" + server.getLocalPort());

            dns.set(InetAddress.getByName("169.254.169.254"));
            assertThatThrownBy(() -> h.handle(job("rebind.invalid")))
                    .isInstanceOf(IOException.class)
                    .hasMessage("callback not sent: host rebind.invalid resolves to an internal address (loopback,"
                            + " private, link-local, metadata or another special-purpose range), which the callback"
                            + " allow-list does not include");
            assertThat(requests).hasSize(1);
        }
    }

    @Test
    void withoutAnAllowListLoopbackIsRefusedOnConnection() throws Exception {
        try (CallbackHandler h = handler(List.of(), InetAddress::getAllByName, ofSeconds(5))) {
            assertThatThrownBy(() -> h.handle(job("127.0.0.1")))
                    .hasMessageStartingWith("callback not sent: host 127.0.0.1 resolves to an internal address");
        }
        assertThat(requests).isEmpty();
    }

    @Test
    void plainHttpIsHttp11WithoutAnUpgradeToH2c() throws Exception {
        try (CallbackHandler h = handler(List.of("127.0.0.1"), InetAddress::getAllByName, ofSeconds(5))) {
            h.handle(job("127.0.0.1"));
        }
        String request = requests.get(0).toLowerCase();
        assertThat(request)
                .startsWith("post /hook http/1.1\r\n")
                .doesNotContain("upgrade")
                .doesNotContain("h2c");
        assertThat(request).contains("hourglass-due-at: 2023-11-14t22:13:20z");
    }

    @Test
    void aRefusingAnswerReachesTheErrorAsItsStatusCodeOnly() throws Exception {
        answer.set("HTTP/1.1 403 internal-detail\r\nContent-Length: 11\r\nConnection: close\r\n\r\nsecret-body");
        try (CallbackHandler h = handler(List.of("127.0.0.1"), InetAddress::getAllByName, ofSeconds(5))) {
            assertThatThrownBy(() -> h.handle(job("127.0.0.1"))).hasMessage("callback failed: HTTP 403");
        }
    }

    @Test
    void aServiceThatIsNotHttpLeavesNoTraceOfItsAnswer() throws Exception {
        answer.set("-ERR unknown command 'POST', with args beginning with: '/hook'\r\n");
        try (CallbackHandler h = handler(List.of("127.0.0.1"), InetAddress::getAllByName, ofSeconds(5))) {
            assertThatThrownBy(() -> h.handle(job("127.0.0.1"))).hasMessage("callback failed: no HTTP answer");
        }
    }

    @Test
    void aReceiverThatNeverAnswersTimesOut() throws Exception {
        answer.set(null);
        try (CallbackHandler h = handler(List.of("127.0.0.1"), InetAddress::getAllByName, Duration.ofMillis(300))) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> h.handle(job("127.0.0.1"))).hasMessage("callback failed: timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        }
    }

    private static Duration ofSeconds(long s) {
        return Duration.ofSeconds(s);
    }
}
