package io.hourglass.examples.ordertimeout;

import java.math.BigDecimal;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /orders {"amount": 12.5}} places an order, {@code POST /orders/{id}/payment} pays it (409 when it was
 * closed first), {@code GET /orders/{id}} shows it.
 */
@RestController
@RequestMapping("/orders")
public class OrderController {
    private final Orders orders;

    /** @param orders the orders */
    public OrderController(Orders orders) {
        this.orders = orders;
    }

    /**
     * @param request the amount
     * @return 201 with the unpaid order
     */
    @PostMapping
    public ResponseEntity<Order> place(@RequestBody PlaceOrder request) {
        return ResponseEntity.status(HttpStatus.CREATED).body(orders.place(request.amount()));
    }

    /**
     * @param id the order
     * @return 200 with the paid order, 409 with the closed one, 404
     */
    @PostMapping("/{id}/payment")
    public ResponseEntity<Order> pay(@PathVariable String id) {
        return orders.pay(id)
                .map(order -> order.status() == Order.Status.PAID
                        ? ResponseEntity.ok(order)
                        : ResponseEntity.status(HttpStatus.CONFLICT).body(order))
                .orElse(ResponseEntity.notFound().build());
    }

    /**
     * @param id the order
     * @return 200 with the order, or 404
     */
    @GetMapping("/{id}")
    public ResponseEntity<Order> get(@PathVariable String id) {
        return ResponseEntity.of(orders.get(id));
    }

    /**
     * The body of {@code POST /orders}.
     *
     * @param amount what the order costs
     */
    public record PlaceOrder(BigDecimal amount) {}
}
