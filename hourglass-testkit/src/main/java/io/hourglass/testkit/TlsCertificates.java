package io.hourglass.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority and a server certificate for {@code 127.0.0.1} and {@code localhost}, made with the
 * {@code openssl} command, for tests of Redis over TLS.
 *
 * @param caCertificate the CA's certificate (PEM): what clients trust
 * @param serverCertificate the server's certificate (PEM), signed by the CA
 * @param serverKey the server's private key (PEM)
 */
public record TlsCertificates(Path caCertificate, Path serverCertificate, Path serverKey) {

    /**
     * @param dir where to write the files
     * @return the files, or empty when {@code openssl} is not installed
     * @throws IOException when openssl fails
     */
    public static Optional<TlsCertificates> create(Path dir) throws IOException {
        if (!run(dir, "openssl", "version")) {
            return Optional.empty();
        }
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        boolean made = run(
                        dir,
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "rsa:2048",
                        "-nodes",
                        "-days",
                        "2",
                        "-subj",
                        "/CN=hourglass-test-ca",
                        "-keyout",
                        "ca.key",
                        "-out",
                        "ca.crt")
                && run(
                        dir,
                        "openssl",
                        "req",
                        "-newkey",
                        "rsa:2048",
                        "-nodes",
                        "-subj",
                        "/CN=localhost",
                        "-keyout",
                        "server.key",
                        "-out",
                        "server.csr")
                && run(
                        dir,
                        "openssl",
                        "x509",
                        "-req",
                        "-in",
                        "server.csr",
                        "-CA",
                        "ca.crt",
                        "-CAkey",
                        "ca.key",
                        "-CAcreateserial",
                        "-days",
                        "2",
                        "-extfile",
                        "san.ext",
                        "-out",
                        "server.crt");
        if (!made) {
            throw new IOException("openssl could not make test certificates in " + dir);
        }
        return Optional.of(
                new TlsCertificates(dir.resolve("ca.crt"), dir.resolve("server.crt"), dir.resolve("server.key")));
    }

    private static boolean run(Path dir, String... command) throws IOException {
        try {
            Process p = new ProcessBuilder(List.of(command))
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("openssl.log").toFile())
                    .start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            if (command.length == 2) {
                return false; // "openssl version": not installed
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
