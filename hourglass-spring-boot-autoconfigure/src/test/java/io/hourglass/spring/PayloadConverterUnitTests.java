package io.hourglass.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.spring.json.Jackson2PayloadCodec;
import io.hourglass.spring.json.Jackson3PayloadCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;

/** Raw payloads as they are, others through the codec, clear errors without one. */
class PayloadConverterUnitTests {
    record Order(long id, List<String> items) {}

    @Test
    void bytesAndStringsAreNeverEncoded() {
        PayloadConverter converter = new PayloadConverter(null);
        byte[] raw = {1, 2, 3};
        assertThat(converter.toBytes(raw)).isSameAs(raw);
        assertThat(converter.toBytes("é")).isEqualTo("é".getBytes(StandardCharsets.UTF_8));
        assertThat(converter.fromBytes("é".getBytes(StandardCharsets.UTF_8), String.class))
                .isEqualTo("é");
        assertThat(converter.fromBytes(raw, byte[].class)).isSameAs(raw);
        assertThat(converter.canConvert(String.class)).isTrue();
        assertThat(converter.canConvert(Order.class)).isFalse();
    }

    @Test
    void otherTypesNeedACodec() {
        PayloadConverter converter = new PayloadConverter(null);
        assertThatThrownBy(() -> converter.toBytes(new Order(1, List.of())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("HourglassPayloadCodec")
                .hasMessageContaining(Order.class.getName());
        assertThatThrownBy(() -> converter.toBytes(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("payload");
    }

    @Test
    void bothJacksonCodecsRoundTripGenericTypesAndNameTheTypeOnBadInput() {
        for (HourglassPayloadCodec codec : List.of(
                new Jackson2PayloadCodec(new com.fasterxml.jackson.databind.ObjectMapper()),
                new Jackson3PayloadCodec(
                        tools.jackson.databind.json.JsonMapper.builder().build()))) {
            PayloadConverter converter = new PayloadConverter(codec);
            List<Order> orders = List.of(new Order(1, List.of("a")), new Order(2, List.of()));
            byte[] json = converter.toBytes(orders);
            assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"id\":1");
            assertThat(converter.fromBytes(json, new ParameterizedTypeReference<List<Order>>() {}.getType()))
                    .isEqualTo(orders);
            assertThat(converter.fromBytes("{\"a\":1}".getBytes(StandardCharsets.UTF_8), Map.class))
                    .isEqualTo(Map.of("a", 1));
            assertThatThrownBy(() -> converter.fromBytes("not json".getBytes(StandardCharsets.UTF_8), Order.class))
                    .as(codec.getClass().getSimpleName())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(Order.class.getTypeName());
        }
    }
}
