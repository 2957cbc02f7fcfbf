package io.hourglass.spring;

import java.lang.reflect.Type;

/**
 * Turns typed payloads into job payload bytes and back, for {@link HourglassTemplate} and {@link HourglassListener}
 * methods. The auto-configuration provides one that writes JSON through the application's own Jackson mapper (Jackson
 * 3's {@code JsonMapper} on Spring Boot 4, Jackson 2's {@code ObjectMapper} on Spring Boot 3.5), so
 * {@code spring.jackson.*} settings apply; declare a bean of this type to use another format.
 *
 * <p>{@code byte[]} and {@code String} payloads never reach a codec: they are stored as they are (a string as UTF-8),
 * so jobs scheduled by other producers (the HTTP API, other languages) can be read as raw text.
 *
 * <p>Implementations must be thread-safe.
 */
public interface HourglassPayloadCodec {

    /**
     * @param payload the value to store; never null, never a {@code byte[]} or {@code String}
     * @return the bytes to store as the job's payload; never null
     * @throws IllegalArgumentException when the value cannot be written, naming its type
     */
    byte[] encode(Object payload);

    /**
     * @param payload the job's payload bytes; never null
     * @param type the type to read, e.g. a class or a parameterized type such as {@code List<Order>}
     * @return the value, or null when the payload encodes null
     * @throws IllegalArgumentException when the bytes cannot be read as that type, naming it
     */
    Object decode(byte[] payload, Type type);
}
