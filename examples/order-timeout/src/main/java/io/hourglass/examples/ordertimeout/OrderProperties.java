package io.hourglass.examples.ordertimeout;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code orders.*}.
 *
 * @param paymentWindow how long an order may stay unpaid before it is closed
 */
@ConfigurationProperties("orders")
public record OrderProperties(Duration paymentWindow) {

    /** @param paymentWindow how long an order may stay unpaid; 10 minutes when not set */
    public OrderProperties {
        paymentWindow = paymentWindow == null ? Duration.ofMinutes(10) : paymentWindow;
    }
}
