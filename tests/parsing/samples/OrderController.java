package com.example.orders;

import java.util.List;

/**
 * REST endpoints for orders.
 */
@RestController
@RequestMapping("/orders")
public class OrderController {
    private final OrderRepository repository;

    public OrderController(OrderRepository repository) {
        this.repository = repository;
    }

    /** Lists all orders. */
    @GetMapping
    public List<Order> list() {
        return repository.findAll();
    }

    enum Status { OPEN, CLOSED }
}

interface OrderRepository {
    List<Order> findAll();
}
