package io.hourglass.examples.notificationretries;

import java.net.http.HttpClient;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * POSTs a notification to the downstream gateway ({@code notifications.gateway-url}). A send that does not get a 2xx
 * answer throws, which makes Hourglass retry the job. Each request carries the notification's id as its
 * {@code Idempotency-Key}, because a job is delivered at least once: a gateway that keeps the keys it has seen sends a
 * notification once even when a delivery is repeated. Thread-safe.
 */
@Component
public class NotificationGateway {
    private final RestClient http;

    /** @param properties the gateway's URL and the time allowed for one request */
    public NotificationGateway(NotificationProperties properties) {
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().connectTimeout(properties.sendTimeout()).build());
        requests.setReadTimeout(properties.sendTimeout());
        this.http = RestClient.builder()
                .baseUrl(properties.gatewayUrl().toString())
                .requestFactory(requests)
                .build();
    }

    /**
     * Sends one notification.
     *
     * @param id the notification's id, sent as the {@code Idempotency-Key} header
     * @param attempt which attempt this is, 1 for the first, sent as the {@code Notification-Attempt} header
     * @param notification what to send
     * @throws NotificationNotSentException when the gateway answers, but not 2xx
     * @throws org.springframework.web.client.RestClientException when it does not answer in time
     */
    public void send(String id, int attempt, Notification notification) {
        http.post()
                .header("Idempotency-Key", id)
                .header("Notification-Attempt", Integer.toString(attempt))
                .contentType(MediaType.APPLICATION_JSON)
                .body(notification)
                .retrieve()
                .onStatus(status -> !status.is2xxSuccessful(), (request, response) -> {
                    throw new NotificationNotSentException(
                            "gateway answered " + response.getStatusCode().value());
                })
                .toBodilessEntity();
    }
}
