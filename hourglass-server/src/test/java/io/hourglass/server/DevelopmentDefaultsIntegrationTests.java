package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server in development mode (embedded Redis, no tokens), run as in production as a child JVM whose Tomcat logs at
 * INFO as with Spring Boot's default logging (the test kit's logback-test.xml would hide it): loopback only, an
 * embedded Redis with a password and owner-only files, and no secret in the log.
 */
class DevelopmentDefaultsIntegrationTests {
    private static final Pattern REDIS_PORT = Pattern.compile("Started redis-server \\S+ on 127\\.0\\.0\\.1:(\\d+)");
    private static final String TOKEN = "leaked-token-0123456789abcdef";

    @TempDir
    static Path dir;

    private static ServerProcess server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        server = ServerProcess.startWithJvmOptions(
                List.of("-Dlogging.level.org.apache=INFO"),
                "--data-dir",
                dir.resolve("data").toString());
        port = server.awaitPort(60);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aTokenInAMalformedAuthorizationHeaderNeverReachesTheLog() throws Exception {
        try (RawHttp http = new RawHttp(port)) {
            // A bare CR inside a header line: Tomcat refuses the request, and used to log the line at INFO.
            String answer = http.send("GET /v1/topics/t/jobs/x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                            + TOKEN + "\rX-Other: y\r\n\r\n")
                    .readResponse();
            assertThat(answer).startsWith("HTTP/1.1 400").doesNotContain(TOKEN);
        }
        assertThat(new Api(port).get("/health").status()).isEqualTo(200);
        Thread.sleep(500);
        assertThat(server.output()).doesNotContain(TOKEN);
    }

    @Test
    void theApiListensOnLoopbackOnlyAndSaysSo() throws Exception {
        assertThat(server.output())
                .contains("Hourglass server listening on port " + port + ", address 127.0.0.1 (this machine only");
        Optional<InetAddress> external = NetworkInterface.networkInterfaces()
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .findFirst();
        if (external.isPresent()) {
            assertThatThrownBy(() -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress(external.get(), port), 2000);
                        }
                    })
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void theEmbeddedRedisAsksForAPasswordKeptOwnerOnlyAndNeverLogged() throws Exception {
        Path data = dir.resolve("data");
        Path passwordFile = data.resolve("redis.password");
        String password = Files.readString(passwordFile).strip();
        assertThat(password).hasSizeGreaterThanOrEqualTo(40);
        assertThat(permissions(data)).isEqualTo("rwx------");
        assertThat(permissions(passwordFile)).isEqualTo("rw-------");
        assertThat(server.output()).doesNotContain(password);

        Matcher m = REDIS_PORT.matcher(server.output());
        assertThat(m.find()).as("Redis port in:\n" + server.output()).isTrue();
        int redisPort = Integer.parseInt(m.group(1));
        try (Socket socket = new Socket("127.0.0.1", redisPort)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readLine(socket.getInputStream())).startsWith("-NOAUTH");
        }
        RedisClient client = RedisClient.create(RedisURI.builder()
                .withHost("127.0.0.1")
                .withPort(redisPort)
                .withPassword(password.toCharArray())
                .build());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            assertThat(connection.sync().configGet("bind")).containsEntry("bind", "127.0.0.1");
        } finally {
            client.shutdown();
        }
    }

    private static String permissions(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            line.append((char) b);
        }
        return line.toString().strip();
    }
}
