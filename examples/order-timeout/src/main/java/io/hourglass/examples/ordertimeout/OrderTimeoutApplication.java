package io.hourglass.examples.ordertimeout;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * An order service: an order placed and not paid within the payment window is closed. The close is a delayed job in
 * Hourglass, scheduled when the order is placed and cancelled when it is paid; any instance of the service may run it,
 * at least once, and a restart loses nothing.
 */
@SpringBootApplication
@EnableConfigurationProperties(OrderProperties.class)
public class OrderTimeoutApplication {

    /** @param args Spring Boot arguments, e.g. {@code --spring.data.redis.port=6380} */
    public static void main(String[] args) {
        SpringApplication.run(OrderTimeoutApplication.class, args);
    }
}
