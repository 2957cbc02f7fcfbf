package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Slow clients cannot hold the API's request threads: an early error answer closes the connection instead of waiting
 * for the rest of a body, and a body that trickles in is cut off at {@code hourglass.body-read-timeout-ms}.
 */
@ServerSettings({"--hourglass.tokens=" + AuthIntegrationTests.TOKENS, "--hourglass.body-read-timeout-ms=1500"})
class SlowClientIntegrationTests extends ServerTestSupport {
    /** More than Tomcat's 200 request threads. */
    private static final int SLOW_CLIENTS = 300;

    private static final String SLOW_POST = "POST /v1/topics/orders/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nContent-Length: 100000\r\n";

    @Test
    @Timeout(60)
    void hundredsOfSlowBodiesWithoutATokenGetTheir401AndTheApiKeepsAnswering() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                Socket socket = new Socket("127.0.0.1", port());
                socket.setSoTimeout(10_000);
                sockets.add(socket);
                // Headers and the start of a body, then nothing: the rest is never sent.
                socket.getOutputStream().write((SLOW_POST + "\r\n{\"payload\": ").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
            }
            long start = System.nanoTime();
            var answer = api.withToken(AuthIntegrationTests.ADMIN).get("/v1/topics/orders/jobs/none");
            assertThat(answer.status()).isEqualTo(404);
            assertThat(millisSince(start))
                    .as("ms for an API call amid the slow clients")
                    .isLessThan(5_000);
            for (Socket socket : sockets) {
                String refused = readUntilClosed(socket.getInputStream());
                assertThat(refused).startsWith("HTTP/1.1 401").containsIgnoringCase("Connection: close");
            }
            // Tomcat would have waited for each body up to the connection timeout (10 s) before closing.
            assertThat(millisSince(start))
                    .as("ms until every slow client was answered and closed")
                    .isLessThan(8_000);
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    @Timeout(30)
    void aBodyThatTricklesInIsCutOffWith408AndTheConnectionClosed() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.setSoTimeout(10_000);
            var out = socket.getOutputStream();
            out.write((SLOW_POST + "Authorization: Bearer " + AuthIntegrationTests.ADMIN + "\r\n\r\n{\"payload\": \"")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long start = System.nanoTime();
            String answer = null;
            // A byte every 100 ms keeps each read short, while the whole body would take hours.
            for (int i = 0; i < 100 && answer == null; i++) {
                try {
                    out.write('x');
                    out.flush();
                } catch (IOException closed) {
                    answer = readUntilClosed(socket.getInputStream());
                }
                Thread.sleep(100);
                if (socket.getInputStream().available() > 0) {
                    answer = readUntilClosed(socket.getInputStream());
                }
            }
            long elapsedMs = millisSince(start);
            assertThat(answer).startsWith("HTTP/1.1 408").containsIgnoringCase("Connection: close");
            assertThat(answer).contains("\"body: the request body did not arrive within 1500 ms\"");
            assertThat(elapsedMs).isBetween(1_000L, 6_000L);
        }
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private static String readUntilClosed(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
}
