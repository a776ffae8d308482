package io.guard.test.redis;

import java.util.ArrayList;
import java.util.List;

/** One line of {@code CLUSTER NODES}: id, port, flags ({@code myself,master}, {@code handshake}, ...), master id. */
record NodeLine(String id, int port, String flags, String masterId) {

    boolean failed() {
        return flags.contains("fail");
    }

    /** Still being introduced by a {@code CLUSTER MEET}: its id is a placeholder until the handshake ends. */
    boolean inHandshake() {
        return flags.contains("handshake");
    }

    /** The lines of {@code node}'s {@code CLUSTER NODES} now. */
    static List<NodeLine> of(DedicatedRedis node) {
        return parse((String) node.endpoint("").call("CLUSTER", "NODES"));
    }

    static List<NodeLine> parse(String reply) {
        List<NodeLine> lines = new ArrayList<>();
        for (String line : reply.split("\n")) {
            String[] fields = line.trim().split(" ");
            if (fields.length < 4) {
                continue;
            }
            String address = fields[1].contains("@") ? fields[1].substring(0, fields[1].indexOf('@')) : fields[1];
            lines.add(new NodeLine(fields[0], Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)),
                    fields[2], fields[3]));
        }
        return lines;
    }
}
