package io.hourglass.spring.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hourglass.spring.HourglassPayloadCodec;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Objects;

/**
 * Writes and reads payloads as JSON with Jackson 2 (Spring Boot 3.5's default), through the application's
 * {@link ObjectMapper} bean so that its {@code spring.jackson.*} settings and modules apply. Thread-safe.
 */
public final class Jackson2PayloadCodec implements HourglassPayloadCodec {
    private final ObjectMapper mapper;

    /** @param mapper the mapper; not null */
    public Jackson2PayloadCodec(ObjectMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    public byte[] encode(Object payload) {
        try {
            return mapper.writeValueAsBytes(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "payload: cannot write " + payload.getClass().getName() + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public Object decode(byte[] payload, Type type) {
        try {
            return mapper.readValue(payload, mapper.constructType(type));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "payload: cannot read JSON as " + type.getTypeName() + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("payload: cannot read JSON as " + type.getTypeName(), e);
        }
    }
}
