package io.hourglass.server;

import io.hourglass.spring.autoconfigure.HourglassProperties;
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

    /** @return a listener that logs the port the server listens on (the actual one when 0 was asked) */
    @Bean
    public ApplicationListener<WebServerInitializedEvent> portAnnouncer() {
        return event -> log.info(
                "Hourglass server listening on port {}", event.getWebServer().getPort());
    }

    /**
     * @param properties the starter's {@code hourglass.*} properties, which callback delivery runs with
     * @return a listener that says when callbacks are unsigned or may go to any host
     */
    @Bean
    public ApplicationListener<ApplicationStartedEvent> callbackNotices(HourglassProperties properties) {
        return event -> {
            HourglassProperties.CallbackDelivery callbacks = properties.getCallbackDelivery();
            if (callbacks.getSigningSecret() == null) {
                log.info("Callbacks are unsigned: set --callback-secret (HOURGLASS_CALLBACK_SECRET) to sign them.");
            }
            if (callbacks.getAllowList().isEmpty()) {
                log.info(
                        "Callbacks may go to any host: set --callback-allow (HOURGLASS_CALLBACK_ALLOW) to restrict them.");
            }
        };
    }
}
