package io.hourglass.spring;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Converts between typed payloads and job payload bytes: {@code byte[]} as they are, {@code String} as UTF-8, any other
 * type through the {@link HourglassPayloadCodec} (JSON by default). Shared by {@link HourglassTemplate} and the
 * {@link HourglassListener} support so that both sides of a job agree. Immutable and thread-safe.
 */
public final class PayloadConverter {
    private final HourglassPayloadCodec codec;

    /**
     * @param codec the codec for types other than {@code byte[]} and {@code String}, or null when there is none (no
     *     JSON library on the class path): converting such a type then throws {@link IllegalStateException}
     */
    public PayloadConverter(HourglassPayloadCodec codec) {
        this.codec = codec;
    }

    /**
     * @param type a payload type
     * @return whether payloads of this type can be converted: always for {@code byte[]} and {@code String}, for other
     *     types only when a codec is present
     */
    public boolean canConvert(Type type) {
        return isRaw(type) || codec != null;
    }

    /**
     * @param payload the payload; not null
     * @return its bytes; never null
     * @throws IllegalArgumentException when the payload is null or the codec cannot write it
     * @throws IllegalStateException when the payload needs a codec and there is none
     */
    public byte[] toBytes(Object payload) {
        if (payload == null) {
            throw new IllegalArgumentException("payload: must not be null");
        }
        if (payload instanceof byte[] bytes) {
            return bytes;
        }
        if (payload instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        return requireCodec(payload.getClass()).encode(payload);
    }

    /**
     * @param payload the job's payload bytes; not null
     * @param type the type to read
     * @return the value; null only when the codec reads null
     * @throws IllegalArgumentException when the codec cannot read the bytes as that type
     * @throws IllegalStateException when the type needs a codec and there is none
     */
    public Object fromBytes(byte[] payload, Type type) {
        Objects.requireNonNull(payload, "payload");
        if (type == byte[].class) {
            return payload;
        }
        if (type == String.class) {
            return new String(payload, StandardCharsets.UTF_8);
        }
        return requireCodec(type).decode(payload, type);
    }

    private HourglassPayloadCodec requireCodec(Type type) {
        if (codec == null) {
            throw new IllegalStateException("no HourglassPayloadCodec for payloads of type " + type.getTypeName()
                    + ": add Jackson (spring-boot-starter-json) or declare an HourglassPayloadCodec bean, or use"
                    + " String or"
                    + " byte[] payloads");
        }
        return codec;
    }

    private static boolean isRaw(Type type) {
        return type == byte[].class || type == String.class;
    }
}
