package io.guard.test.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough of the Redis protocol (RESP2) to ping a server, wait for it and inspect keys, so the harness needs
 * no client library and cannot be broken by the client under test.
 */
final class Resp {

    private static final int TIMEOUT_MILLIS = 2_000;

    private Resp() {
    }

    static Object call(String host, int port, String password, String... command) {
        return call(host, port, password, 0, command);
    }

    /** As {@link #call(String, int, String, String...)}, in {@code database} (SELECT first unless 0). */
    static Object call(String host, int port, String password, int database, String... command) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            if (password != null) {
                write(out, "AUTH", password);
                read(in, host, port);
            }
            if (database != 0) {
                write(out, "SELECT", Integer.toString(database));
                read(in, host, port);
            }
            write(out, command);
            return read(in, host, port);
        } catch (IOException e) {
            throw new IllegalStateException("Redis at " + host + ":" + port + " did not answer "
                    + String.join(" ", command) + ": " + e, e);
        }
    }

    /** True when a server at host:port answers PING. */
    static boolean ping(String host, int port) {
        try {
            return "PONG".equals(call(host, port, null, "PING"));
        } catch (IllegalStateException e) {
            return false;
        }
    }

    static List<String> strings(Object reply) {
        List<String> values = new ArrayList<>();
        for (Object element : (List<?>) reply) {
            values.add((String) element);
        }
        return values;
    }

    /** Escapes the glob characters of KEYS/SCAN patterns so a prefix matches literally. */
    static String escapeGlob(String literal) {
        StringBuilder escaped = new StringBuilder(literal.length() + 8);
        for (char c : literal.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    private static void write(OutputStream out, String... command) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        buffer.writeBytes(("*" + command.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String part : command) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            buffer.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            buffer.writeBytes(bytes);
            buffer.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write(buffer.toByteArray());
        out.flush();
    }

    private static Object read(InputStream in, String host, int port) throws IOException {
        int type = in.read();
        String line = line(in);
        return switch (type) {
            case '+' -> line;
            case '-' -> throw new IllegalStateException("Redis at " + host + ":" + port + " answered: " + line);
            case ':' -> Long.parseLong(line);
            case '$' -> bulk(in, Integer.parseInt(line));
            case '*' -> {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    yield null;
                }
                List<Object> elements = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    elements.add(read(in, host, port));
                }
                yield elements;
            }
            case -1 -> throw new IOException("connection closed by the server");
            default -> throw new IOException("unexpected reply type '" + (char) type + "'");
        };
    }

    private static String bulk(InputStream in, int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length);
        line(in);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int previous = -1;
        for (int c = in.read(); c != -1; c = in.read()) {
            if (previous == '\r' && c == '\n') {
                byte[] all = bytes.toByteArray();
                return new String(all, 0, all.length - 1, StandardCharsets.UTF_8);
            }
            bytes.write(c);
            previous = c;
        }
        throw new IOException("connection closed in the middle of a reply");
    }
}
