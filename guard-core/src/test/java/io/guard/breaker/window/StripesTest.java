package io.guard.breaker.window;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class StripesTest {

    private static final class Cell extends Stripe {
    }

    private static int park(Stripes<Cell> stripes) {
        Cell cell = stripes.lockForCurrentThread();
        assertThat(cell).isNotNull();
        cell.unlock();
        return stripes.indexForCurrentThread();
    }

    /** Two threads whose first choice is the same stripe take turns; within a few calls they use different ones. */
    @Test
    void threadsThatStartOnOneStripeMoveApart() throws Exception {
        Stripes<Cell> stripes = new Stripes<>(Cell::new, 4, () -> 7);
        ExecutorService a = Executors.newSingleThreadExecutor();
        ExecutorService b = Executors.newSingleThreadExecutor();
        try {
            int apartSince = -1;
            for (int turn = 0; turn < 50; turn++) {
                int ia = a.submit(() -> park(stripes)).get(10, TimeUnit.SECONDS);
                int ib = b.submit(() -> park(stripes)).get(10, TimeUnit.SECONDS);
                if (ia != ib && apartSince < 0) {
                    apartSince = turn;
                }
            }
            assertThat(apartSince).isBetween(0, 10);
            int ia = a.submit(() -> park(stripes)).get(10, TimeUnit.SECONDS);
            int ib = b.submit(() -> park(stripes)).get(10, TimeUnit.SECONDS);
            assertThat(ia).as("once apart, each thread keeps its stripe").isNotEqualTo(ib);
        } finally {
            a.shutdownNow();
            b.shutdownNow();
        }
    }

    @Test
    void aSingleThreadKeepsItsStripe() {
        Stripes<Cell> stripes = new Stripes<>(Cell::new, 4, () -> 3);
        for (int i = 0; i < 100; i++) {
            assertThat(park(stripes)).isEqualTo(3);
        }
    }
}
