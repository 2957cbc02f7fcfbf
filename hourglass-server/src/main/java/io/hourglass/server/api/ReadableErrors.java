package io.hourglass.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.converter.HttpMessageNotReadableException;

/**
 * Turns failures to read a request into messages that start with the field at fault, as every error body of the API
 * does: {@code "delayMs: must be an integer"}, {@code "colour: unknown property"}, {@code "body: malformed JSON ..."}.
 * Also renames the core library's field names to the API's ({@code delay} to {@code delayMs}, ...).
 */
final class ReadableErrors {
    private static final Map<String, String> API_FIELD_OF = Map.of(
            "delay",
            "delayMs",
            "lease",
            "leaseMs",
            "backoff",
            "backoffMs",
            "retryDelay",
            "retryDelayMs",
            "wait",
            "waitMs");

    /** A message that starts with a field name: {@code "delayMs: ..."}, {@code "backoffMs[1]: ..."}. */
    private static final Pattern FIELD_FIRST = Pattern.compile("[A-Za-z][A-Za-z0-9_.\\[\\]-]*: ");

    private ReadableErrors() {}

    /**
     * @return the message of a core {@link IllegalArgumentException}, with the field renamed to the API's; a message
     *     that names no field (not the core's) is given the field {@code request}
     */
    static String apiMessage(IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        int colon = message.indexOf(':');
        if (colon > 0 && API_FIELD_OF.containsKey(message.substring(0, colon))) {
            return API_FIELD_OF.get(message.substring(0, colon)) + message.substring(colon);
        }
        return FIELD_FIRST.matcher(message).lookingAt() ? message : "request: " + message;
    }

    static String describe(HttpMessageNotReadableException e) {
        Throwable cause = e.getCause();
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof StreamConstraintsException tooDeep) {
                // Named by its top field only: the path of a value nested 1000 deep is 1000 indices long.
                String field = cause instanceof JsonMappingException m
                                && !m.getPath().isEmpty()
                                && m.getPath().get(0).getFieldName() != null
                        ? m.getPath().get(0).getFieldName()
                        : "body";
                return field.equals("payload")
                        ? Payloads.tooDeepMessage()
                        : field + ": " + firstLine(tooDeep.getOriginalMessage());
            }
        }
        if (cause instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String field = path(m.getPath());
            if (m instanceof UnrecognizedPropertyException) {
                return field + ": unknown property";
            }
            if (m instanceof MismatchedInputException mi && mi.getTargetType() != null) {
                return field + ": must be " + jsonType(mi.getTargetType());
            }
            return field + ": " + firstLine(m.getOriginalMessage());
        }
        if (cause instanceof MismatchedInputException mi
                && mi.getTargetType() != null
                && mi.getTargetType().isRecord()) {
            return "body: must be a JSON object";
        }
        if (cause instanceof JsonProcessingException p) {
            return "body: malformed JSON: " + firstLine(p.getOriginalMessage());
        }
        return "body: required, as a JSON object";
    }

    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.isEmpty() ? "body" : sb.toString();
    }

    private static String jsonType(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "an array";
        }
        return type.isRecord() ? "a JSON object" : "a " + type.getSimpleName();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
