package io.guard.sample.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ScenarioPlotTest {

    @Test
    void drawsThreeStackedChartsIntoOnePng(@TempDir Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<Timeline.Row> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String state = i < 20 ? "CLOSED" : i < 35 ? "OPEN" : i < 38 ? "HALF_OPEN" : "CLOSED";
            boolean open = state.equals("OPEN");
            rows.add(new Timeline.Row(i * 100L, state, 50, open ? 0 : 50, open ? 0 : 50, open ? 50 : 0, 0,
                    open ? 1.0 : 120.0, open ? 3.0 : 140.0));
        }
        Path png = dir.resolve("plot.png");

        ScenarioPlot.write(rows, List.of(2000L, 3500L), "test", png);

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(1200);
        assertThat(image.getHeight()).isEqualTo(3 * 320);
    }
}
