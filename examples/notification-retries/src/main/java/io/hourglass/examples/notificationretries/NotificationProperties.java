package io.hourglass.examples.notificationretries;

import io.hourglass.Backoff;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code notifications.*}.
 *
 * @param gatewayUrl where notifications are POSTed; a 2xx answer means sent
 * @param retrySteps the backoff before each retry; a notification gets one attempt plus one per step
 * @param sendTimeout how long one POST to the gateway may take
 */
@ConfigurationProperties("notifications")
public record NotificationProperties(URI gatewayUrl, List<Duration> retrySteps, Duration sendTimeout) {

    /**
     * @param gatewayUrl where notifications are POSTed; {@code http://localhost:9090/send} when not set
     * @param retrySteps the backoff steps; {@link Backoff#DEFAULT_STEPS} (15s 3m 10m 30m 30m 1h 2h 6h 15h) when not set
     * @param sendTimeout the time allowed for one POST; 10 seconds when not set
     */
    public NotificationProperties {
        gatewayUrl = gatewayUrl == null ? URI.create("http://localhost:9090/send") : gatewayUrl;
        retrySteps = retrySteps == null || retrySteps.isEmpty() ? Backoff.DEFAULT_STEPS : List.copyOf(retrySteps);
        sendTimeout = sendTimeout == null ? Duration.ofSeconds(10) : sendTimeout;
    }

    /** @return the stepped backoff of {@link #retrySteps()} */
    public Backoff backoff() {
        return Backoff.stepped(retrySteps);
    }

    /** @return the first attempt plus one retry per step: 10 with the default steps */
    public int maxAttempts() {
        return retrySteps.size() + 1;
    }
}
