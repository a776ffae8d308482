package io.guard.event;

/**
 * Receives the events of breakers and limiters. Called on the thread that caused the event, so it must be
 * fast and must not throw; a listener that throws is logged and does not disturb the call.
 */
@FunctionalInterface
public interface GuardEventListener {

    void onEvent(GuardEvent event);
}
