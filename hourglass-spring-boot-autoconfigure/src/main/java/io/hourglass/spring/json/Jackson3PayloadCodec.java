package io.hourglass.spring.json;

import io.hourglass.spring.HourglassPayloadCodec;
import java.lang.reflect.Type;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes and reads payloads as JSON with Jackson 3 (Spring Boot 4's default), through the application's
 * {@link JsonMapper} bean so that its {@code spring.jackson.*} settings and modules apply. Thread-safe.
 */
public final class Jackson3PayloadCodec implements HourglassPayloadCodec {
    private final JsonMapper mapper;

    /** @param mapper the mapper; not null */
    public Jackson3PayloadCodec(JsonMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    public byte[] encode(Object payload) {
        try {
            return mapper.writeValueAsBytes(payload);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "payload: cannot write " + payload.getClass().getName() + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public Object decode(byte[] payload, Type type) {
        try {
            return mapper.readValue(payload, mapper.constructType(type));
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "payload: cannot read JSON as " + type.getTypeName() + ": " + e.getOriginalMessage(), e);
        }
    }
}
