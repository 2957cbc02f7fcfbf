package io.hourglass.examples.notificationretries;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A notification service: each notification is a job in Hourglass that POSTs it to a downstream gateway (SMS, mail, a
 * partner's webhook). A send that fails is retried on the stepped backoff of the Youzan-style design in docs/design.md,
 * 15s 3m 10m 30m 30m 1h 2h 6h 15h, and after the last step the job waits in the dead letters with its last error.
 */
@SpringBootApplication
@EnableConfigurationProperties(NotificationProperties.class)
public class NotificationRetriesApplication {

    /** @param args Spring Boot arguments, e.g. {@code --notifications.gateway-url=http://sms.internal/send} */
    public static void main(String[] args) {
        SpringApplication.run(NotificationRetriesApplication.class, args);
    }
}
