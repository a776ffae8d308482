package io.guard.benchmarks.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of {@code wrk} (Debian package {@code wrk}) against {@code GET /items/{id}?user=}, the id and the user drawn
 * at random from 1000 each, and what it printed: requests, requests per second, p50 and p99 latency, answers that
 * were not 2xx.
 */
record Wrk(long requests, double perSecond, double p50Micros, double p99Micros, long non2xx) {

    private static final String SCRIPT = """
            local counter = 0
            request = function()
              counter = counter + 1
              local user = math.random(1, %d)
              return wrk.format("GET", "/items/" .. (counter %% 997) .. "?user=u" .. user)
            end
            """;

    static Path script(int users) throws IOException {
        Path file = Files.createTempFile("items", ".lua");
        file.toFile().deleteOnExit();
        Files.writeString(file, String.format(Locale.ROOT, SCRIPT, users));
        return file;
    }

    static Wrk run(int port, int connections, int seconds, Path script) throws IOException, InterruptedException {
        int threads = Math.min(2, connections);
        Process wrk = new ProcessBuilder(List.of("wrk", "-t" + threads, "-c" + connections, "-d" + seconds + "s",
                "--latency", "-s", script.toString(), "http://127.0.0.1:" + port))
                .redirectErrorStream(true).start();
        String out = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!wrk.waitFor(seconds + 60L, TimeUnit.SECONDS) || wrk.exitValue() != 0) {
            throw new IllegalStateException("wrk failed:\n" + out);
        }
        return parse(out);
    }

    static Wrk parse(String out) {
        return new Wrk(Long.parseLong(find(out, "(\\d+) requests in")),
                Double.parseDouble(find(out, "Requests/sec:\\s+([\\d.]+)")),
                micros(find(out, "\\s50%\\s+([\\d.]+\\w+)")), micros(find(out, "\\s99%\\s+([\\d.]+\\w+)")),
                out.contains("Non-2xx") ? Long.parseLong(find(out, "Non-2xx or 3xx responses: (\\d+)")) : 0);
    }

    private static String find(String out, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(out);
        if (!matcher.find()) {
            throw new IllegalStateException("no '" + regex + "' in wrk's output:\n" + out);
        }
        return matcher.group(1);
    }

    private static double micros(String value) {
        Matcher m = Pattern.compile("([\\d.]+)(us|ms|s|m)").matcher(value);
        if (!m.matches()) {
            throw new IllegalStateException("latency " + value);
        }
        double number = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> number;
            case "ms" -> number * 1e3;
            case "s" -> number * 1e6;
            default -> number * 60e6;
        };
    }
}
