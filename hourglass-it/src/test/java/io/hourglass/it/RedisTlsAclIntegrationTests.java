package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.RedisUnavailableException;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.TlsCertificates;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Redis over TLS with an ACL user, through a {@code rediss://user:password@host:port} URI. */
class RedisTlsAclIntegrationTests {

    @Test
    void schedulesAndDeliversOverTlsAsAnAclUser(@TempDir Path dir) throws Exception {
        TlsCertificates certs = TlsCertificates.create(dir).orElse(null);
        Assumptions.assumeTrue(certs != null, "skipped: openssl is not installed, so no test certificates");
        int tlsPort = freePort();
        RedisServerProcess redis;
        try {
            redis = RedisServerProcess.builder()
                    .arg("tls-port", Integer.toString(tlsPort))
                    .arg("tls-cert-file", certs.serverCertificate().toString())
                    .arg("tls-key-file", certs.serverKey().toString())
                    .arg("tls-ca-cert-file", certs.caCertificate().toString())
                    .arg("tls-auth-clients", "no")
                    .arg("user", "default", "off")
                    // The least an Hourglass user needs: its keys, and its wake channels' pattern (matched literally).
                    .arg("user", "worker", "on", ">s3cret-pass", "~hg:*", "&hg:{default}:wake:*", "+@all")
                    .start();
        } catch (IOException | IllegalStateException e) {
            Assumptions.abort("skipped: this redis-server cannot serve TLS ("
                    + e.getMessage().lines().findFirst().orElse("")
                    + "); install Redis 7 built with TLS, e.g. Debian's redis-server");
            return;
        }
        try (redis) {
            String uri = "rediss://worker:s3cret-pass@127.0.0.1:" + tlsPort;
            try (Hourglass hourglass = Hourglass.builder()
                    .redisUri(uri)
                    .tlsTrustedCertificates(certs.caCertificate())
                    .build()) {
                List<String> delivered = new CopyOnWriteArrayList<>();
                hourglass.subscribe("secure", job -> delivered.add(job.payloadAsString()));
                hourglass.schedule(JobRequest.builder("secure")
                        .payload("over tls")
                        .delay(Duration.ofMillis(100))
                        .build());
                await().atMost(Duration.ofSeconds(5)).until(() -> delivered.contains("over tls"));
            }
            assertThatThrownBy(() -> Hourglass.builder()
                            .redisUri("rediss://worker:wrong@127.0.0.1:" + tlsPort)
                            .tlsTrustedCertificates(certs.caCertificate())
                            .build())
                    .isInstanceOf(RedisUnavailableException.class);
            Path otherCa = TlsCertificates.create(dir.resolve("other").toFile().mkdirs() ? dir.resolve("other") : dir)
                    .orElseThrow()
                    .caCertificate();
            assertThatThrownBy(() -> Hourglass.builder()
                            .redisUri(uri)
                            .tlsTrustedCertificates(otherCa)
                            .build())
                    .as("a server whose certificate the client does not trust")
                    .isInstanceOf(RedisUnavailableException.class);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
