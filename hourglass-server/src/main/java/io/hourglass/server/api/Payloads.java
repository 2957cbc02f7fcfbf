package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Converts payloads between the HTTP API (any JSON value) and Hourglass (opaque bytes): a payload is stored as the
 * UTF-8 bytes of its JSON text and read back as JSON. Bytes that are not JSON (a job scheduled through the Java
 * library with a non-JSON payload) are shown as a JSON string of their UTF-8 text.
 */
final class Payloads {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Payloads() {}

    static byte[] toBytes(JsonNode payload) {
        try {
            return JSON.writeValueAsBytes(payload);
        } catch (IOException e) {
            throw new IllegalArgumentException("payload: cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    static JsonNode fromBytes(byte[] payload) {
        try {
            JsonNode node = JSON.readTree(payload);
            return node == null || node.isMissingNode() ? TextNode.valueOf("") : node;
        } catch (IOException e) {
            return TextNode.valueOf(new String(payload, StandardCharsets.UTF_8));
        }
    }
}
