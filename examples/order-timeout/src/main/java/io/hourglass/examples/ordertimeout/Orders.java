package io.hourglass.examples.ordertimeout;

import io.hourglass.Job;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassTemplate;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Places, pays and closes orders. Orders live in memory to keep the example small; a real service keeps them in its
 * database and makes {@link #close} idempotent the same way (close only what is still unpaid), because a job is
 * delivered at least once. Thread-safe.
 */
@Service
public class Orders {
    /** The topic of the orders' timeout jobs. */
    public static final String TIMEOUTS = "order-timeout";

    private static final Logger log = LoggerFactory.getLogger(Orders.class);

    private final Map<String, Order> orders = new ConcurrentHashMap<>();
    private final HourglassTemplate hourglass;
    private final OrderProperties properties;

    /**
     * @param hourglass schedules and cancels the timeouts
     * @param properties the payment window
     */
    public Orders(HourglassTemplate hourglass, OrderProperties properties) {
        this.hourglass = hourglass;
        this.properties = properties;
    }

    /**
     * Places an order and schedules its close at the end of the payment window.
     *
     * @param amount what it costs
     * @return the unpaid order
     */
    public Order place(BigDecimal amount) {
        Order order = new Order(UUID.randomUUID().toString(), amount, Order.Status.UNPAID);
        orders.put(order.id(), order);
        hourglass.schedule(TIMEOUTS, order.id(), new OrderTimeout(order.id()), properties.paymentWindow());
        return order;
    }

    /**
     * Pays an unpaid order and cancels its timeout.
     *
     * @param id the order
     * @return the order as it is now: PAID, or CLOSED when the payment came too late; empty when there is none
     */
    public Optional<Order> pay(String id) {
        Order order = orders.computeIfPresent(
                id,
                (key, current) -> current.status() == Order.Status.UNPAID ? current.with(Order.Status.PAID) : current);
        if (order != null && order.status() == Order.Status.PAID) {
            hourglass.cancel(TIMEOUTS, id);
        }
        return Optional.ofNullable(order);
    }

    /**
     * @param id the order
     * @return the order, or empty
     */
    public Optional<Order> get(String id) {
        return Optional.ofNullable(orders.get(id));
    }

    /**
     * Closes an order that is still unpaid when its timeout job is due; does nothing to a paid or closed one.
     *
     * @param timeout the job's payload
     * @param job the delivery
     */
    @HourglassListener(topic = TIMEOUTS, concurrency = "${orders.close-concurrency:8}")
    public void close(OrderTimeout timeout, Job job) {
        Order order = orders.computeIfPresent(
                timeout.orderId(),
                (key, current) ->
                        current.status() == Order.Status.UNPAID ? current.with(Order.Status.CLOSED) : current);
        log.info(
                "order {} {} (timeout job attempt {}, due {})",
                timeout.orderId(),
                order == null ? "unknown" : order.status(),
                job.attempt(),
                job.dueAt());
    }
}
