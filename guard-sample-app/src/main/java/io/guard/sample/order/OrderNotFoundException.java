package io.guard.sample.order;

/** No order has this id (or it was evicted from the sample's bounded store). Answered with 404. */
public class OrderNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OrderNotFoundException(long id) {
        super("No order with id " + id);
    }
}
