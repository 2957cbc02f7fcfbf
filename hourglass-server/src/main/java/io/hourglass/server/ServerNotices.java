package io.hourglass.server;

import io.hourglass.spring.autoconfigure.HourglassProperties;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What the server logs at startup about itself: its port, and the callback settings worth a second look. */
@Configuration(proxyBeanMethods = false)
public class ServerNotices {
    private static final Logger log = LoggerFactory.getLogger(ServerNotices.class);

    /**
     * @return a listener that logs the port the server listens on (the actual one when 0 was asked) and its address
     *     ({@code server.address}, which {@code --bind} sets)
     */
    @Bean
    public ApplicationListener<WebServerInitializedEvent> portAnnouncer() {
        return event -> {
            String address = event.getApplicationContext().getEnvironment().getProperty("server.address");
            String shown = address == null || address.isBlank() ? "0.0.0.0" : address.trim();
            String reach = isLoopback(shown)
                    ? "this machine only; --bind 0.0.0.0 (HOURGLASS_BIND) to accept other hosts"
                    : shown.equals("0.0.0.0") || shown.equals("::") ? "all interfaces" : "this address only";
            log.info(
                    "Hourglass server listening on port {}, address {} ({})",
                    event.getWebServer().getPort(),
                    shown,
                    reach);
        };
    }

    private static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * @param properties the starter's {@code hourglass.*} properties, which callback delivery runs with
     * @return a listener that says when callbacks are unsigned or may go to any public host
     */
    @Bean
    public ApplicationListener<ApplicationStartedEvent> callbackNotices(HourglassProperties properties) {
        return event -> {
            HourglassProperties.CallbackDelivery callbacks = properties.getCallbackDelivery();
            if (callbacks.getSigningSecret() == null) {
                log.info("Callbacks are unsigned: set --callback-secret (HOURGLASS_CALLBACK_SECRET) to sign them.");
            }
            if (callbacks.getAllowList().isEmpty()) {
                log.info("Callbacks may go to any public address (never an internal one): set --callback-allow"
                        + " (HOURGLASS_CALLBACK_ALLOW) to restrict them.");
            }
        };
    }
}
