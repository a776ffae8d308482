package io.guard.sample.inventory;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /inventory/{sku}}: stock of one article, degraded while the downstream is sick. */
@RestController
class InventoryController {

    private final InventoryService inventory;

    InventoryController(InventoryService inventory) {
        this.inventory = inventory;
    }

    @GetMapping("/inventory/{sku}")
    Availability availability(@PathVariable String sku) {
        return inventory.availability(sku);
    }
}
