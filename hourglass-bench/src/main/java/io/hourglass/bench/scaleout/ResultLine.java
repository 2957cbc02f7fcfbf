package io.hourglass.bench.scaleout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The line a child process of the bench reports with: {@value #PREFIX}, a space and one JSON object on one line, so
 * that thread names, notes and histograms need no escaping of the bench's own. A histogram travels as HdrHistogram's
 * compressed encoding in Base64. Shared by {@link ScaleOutWorker}, {@link WorkerProcess} and {@link FreshJvmStep}.
 */
final class ResultLine {
    static final String PREFIX = "RESULT";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultLine() {}

    /** @return an empty report to fill */
    static ObjectNode report() {
        return JSON.createObjectNode();
    }

    /** @return the line that carries {@code report} */
    static String of(ObjectNode report) {
        return PREFIX + " " + report;
    }

    /** @return whether {@code line} is a report line */
    static boolean is(String line) {
        return line.startsWith(PREFIX + " ");
    }

    /**
     * @param line a report line ({@link #is})
     * @return its JSON object
     * @throws IllegalArgumentException when what follows the prefix is not a JSON object
     */
    static JsonNode parse(String line) {
        try {
            JsonNode report = JSON.readTree(line.substring(PREFIX.length() + 1));
            if (report == null || !report.isObject()) {
                throw new IllegalArgumentException("not a JSON object: " + line);
            }
            return report;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a report line: " + line, e);
        }
    }

    /**
     * @return the whole number {@code field} of {@code report}
     * @throws IllegalArgumentException naming the field when it is missing or not a number
     */
    static long number(JsonNode report, String field) {
        return numeric(report, field).asLong();
    }

    /**
     * @return the number {@code field} of {@code report}, fractions kept
     * @throws IllegalArgumentException naming the field when it is missing or not a number
     */
    static double real(JsonNode report, String field) {
        return numeric(report, field).asDouble();
    }

    /**
     * @return the string {@code field} of {@code report}
     * @throws IllegalArgumentException naming the field when it is missing or not a string
     */
    static String text(JsonNode report, String field) {
        JsonNode value = report.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("a report without the string " + field + ": " + report);
        }
        return value.asText();
    }

    private static JsonNode numeric(JsonNode report, String field) {
        JsonNode value = report.get(field);
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException("a report without the number " + field + ": " + report);
        }
        return value;
    }

    /** @return {@code histogram} in HdrHistogram's compressed encoding, in Base64 */
    static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * @return the histogram {@link #encode} made {@code base64} of
     * @throws IllegalArgumentException when it is not one
     */
    static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not an encoded histogram", e);
        }
    }
}
