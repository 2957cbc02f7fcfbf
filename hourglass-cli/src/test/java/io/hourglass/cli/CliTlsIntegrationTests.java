package io.hourglass.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.TlsCertificates;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Redis over TLS with a private CA, trusted through HOURGLASS_TLS_TRUSTED_CERTIFICATES. */
class CliTlsIntegrationTests {

    @Test
    void trustsThePrivateCaItIsGiven(@TempDir Path dir) throws Exception {
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
                    .start();
        } catch (IOException | IllegalStateException e) {
            Assumptions.abort("skipped: this redis-server cannot serve TLS ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
            return;
        }
        try (redis) {
            String uri = "rediss://127.0.0.1:" + tlsPort;
            CliRun trusted = CliRun.of(
                    Map.of(
                            "HOURGLASS_REDIS",
                            uri,
                            "HOURGLASS_TLS_TRUSTED_CERTIFICATES",
                            certs.caCertificate().toString()),
                    "topics",
                    "--json");
            assertThat(trusted.exitCode()).as(trusted.toString()).isZero();
            assertThat(trusted.json()).isEmpty();

            CliRun untrusted = CliRun.of(Map.of("HOURGLASS_REDIS", uri), "topics");
            assertThat(untrusted.exitCode()).as(untrusted.toString()).isEqualTo(HourglassCli.EXIT_REDIS_UNAVAILABLE);

            CliRun missing = CliRun.of(
                    Map.of("HOURGLASS_REDIS", uri),
                    "topics",
                    "--tls-trusted-certificates",
                    dir.resolve("absent.pem").toString());
            assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(HourglassCli.EXIT_USAGE);
            assertThat(missing.err()).contains("tlsTrustedCertificates");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
