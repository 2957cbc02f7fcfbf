package io.hourglass.server.api;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * Converts payloads between the HTTP API (any JSON value) and Hourglass (opaque bytes): a payload is stored as the
 * UTF-8 bytes of its JSON text and read back as JSON. Bytes that are not JSON (a job scheduled through the Java library
 * with a non-JSON payload) are shown as a JSON string of their UTF-8 text.
 *
 * <p>A payload nests at most {@value #MAX_DEPTH} arrays and objects deep. The API's replies nest it a few levels deeper
 * (a reservation's list and delivery object), and Jackson refuses to write a document deeper than 1000, so a payload
 * near that limit would make a reply fail after its jobs were claimed.
 */
final class Payloads {
    /** The deepest nesting of arrays and objects a payload may have: {@value}. */
    static final int MAX_DEPTH = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Payloads() {}

    /** A stored payload that the API cannot hand out as JSON (one scheduled through the library). */
    static final class UndeliverablePayloadException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UndeliverablePayloadException(String message) {
            super(message);
        }
    }

    /** @throws IllegalArgumentException naming {@code payload} when it nests deeper than {@link #MAX_DEPTH} */
    static byte[] toBytes(JsonNode payload) {
        return write(payload, "payload");
    }

    /**
     * A job's result as an ack gives it, stored as the UTF-8 bytes of its JSON text like a payload.
     *
     * @throws IllegalArgumentException naming {@code result} when it nests deeper than {@link #MAX_DEPTH}
     */
    static byte[] resultToBytes(JsonNode result) {
        return write(result, "result");
    }

    /** @throws IllegalArgumentException naming {@code field} when the value nests too deep or cannot be written */
    private static byte[] write(JsonNode value, String field) {
        if (depth(value, MAX_DEPTH) > MAX_DEPTH) {
            throw new IllegalArgumentException(tooDeepMessage(field));
        }
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalArgumentException(field + ": cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /**
     * For views of stored jobs: the payload as JSON, or, when it is not JSON or nests too deep to be written back, a
     * JSON string of its UTF-8 text.
     */
    static JsonNode fromBytes(byte[] payload) {
        try {
            return forDelivery(payload);
        } catch (UndeliverablePayloadException e) {
            return TextNode.valueOf(new String(payload, StandardCharsets.UTF_8));
        }
    }

    /**
     * For deliveries to pull workers, which must get the payload as it was scheduled.
     *
     * @return the payload as JSON, or a JSON string of its UTF-8 text when it is not JSON
     * @throws UndeliverablePayloadException when it is JSON nested deeper than {@link #MAX_DEPTH}
     */
    static JsonNode forDelivery(byte[] payload) {
        JsonNode node;
        try {
            node = JSON.readTree(payload);
        } catch (IOException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof StreamConstraintsException) {
                    throw tooDeep();
                }
            }
            return TextNode.valueOf(new String(payload, StandardCharsets.UTF_8));
        }
        if (node == null || node.isMissingNode()) {
            return TextNode.valueOf("");
        }
        if (depth(node, MAX_DEPTH) > MAX_DEPTH) {
            throw tooDeep();
        }
        return node;
    }

    /** The error of a request whose payload nests deeper than {@link #MAX_DEPTH}, naming {@code payload}. */
    static String tooDeepMessage() {
        return tooDeepMessage("payload");
    }

    private static String tooDeepMessage(String field) {
        return field + ": nests arrays and objects more than " + MAX_DEPTH + " levels deep, the limit";
    }

    private static UndeliverablePayloadException tooDeep() {
        return new UndeliverablePayloadException("payload: nests arrays and objects more than " + MAX_DEPTH
                + " levels deep, more than the HTTP API hands out; the job cannot be delivered to pull workers");
    }

    /** @return how deep {@code node} nests arrays and objects (0 for a scalar), counted up to {@code limit} + 1 only */
    static int depth(JsonNode node, int limit) {
        // Iterative: a payload nested thousands deep must not overflow the stack.
        Deque<Iterator<JsonNode>> path = new ArrayDeque<>();
        int deepest = 0;
        if (node.isContainerNode()) {
            path.push(node.elements());
            deepest = 1;
        }
        while (!path.isEmpty()) {
            Iterator<JsonNode> children = path.peek();
            if (!children.hasNext()) {
                path.pop();
                continue;
            }
            JsonNode child = children.next();
            if (child.isContainerNode()) {
                path.push(child.elements());
                deepest = Math.max(deepest, path.size());
                if (deepest > limit) {
                    return deepest;
                }
            }
        }
        return deepest;
    }
}
