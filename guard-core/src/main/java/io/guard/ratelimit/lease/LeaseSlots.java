package io.guard.ratelimit.lease;

import io.guard.ratelimit.RateLimitKeys;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The (limit, key) pairs this instance leases for, bounded in number (keys often come from user input): when full,
 * the slots idle for two lease lifetimes make room, and a key that finds no room is decided exactly.
 */
final class LeaseSlots {

    private final Map<String, LeaseSlot> slots = new ConcurrentHashMap<>();
    private final int maxKeys;
    private final long idleNanos;

    LeaseSlots(int maxKeys, long maxLifetimeNanos) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("lease keys must be at least 1 but was " + maxKeys);
        }
        this.maxKeys = maxKeys;
        this.idleNanos = 2 * maxLifetimeNanos;
    }

    /** The slot of {@code (limit, key)}, made now if there is room; {@code null} when there is none. */
    LeaseSlot find(String limit, String key, long periodNanos, long nanoTime) {
        String tag = RateLimitKeys.hashTag(limit, key);
        LeaseSlot slot = slots.get(tag);
        if (slot != null) {
            return slot;
        }
        if (slots.size() >= maxKeys) {
            slots.values().removeIf(idle -> idle.retire(nanoTime - idleNanos));
            if (slots.size() >= maxKeys) {
                return null;
            }
        }
        return slots.computeIfAbsent(tag, t -> new LeaseSlot(periodNanos, nanoTime));
    }

    /** Calls {@code action} for the slot of {@code tag}, or for every slot when {@code tag} is {@code null}. */
    void each(String tag, Consumer<LeaseSlot> action) {
        if (tag == null) {
            slots.values().forEach(action);
        } else {
            LeaseSlot slot = slots.get(tag);
            if (slot != null) {
                action.accept(slot);
            }
        }
    }

    List<LeaseSlot> all() {
        return new ArrayList<>(slots.values());
    }

    int size() {
        return slots.size();
    }
}
