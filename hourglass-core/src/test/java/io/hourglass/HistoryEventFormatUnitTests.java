package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The entry format of the job-history stream as {@link StorageFormat#historyEvents} reads it; the scripts' side of it
 * (common.lua's history_flush) is checked end to end by the history tests against Redis.
 */
class HistoryEventFormatUnitTests {
    @Test
    void aBatchEntryDecodesToItsEventsInOrderWithTheirAbsentFieldsNull() {
        byte[] binary = {0, (byte) 0xff, '\n', '|'};
        ByteArrayOutputStream events = new ByteArrayOutputStream();
        events.writeBytes(bytes("A1|10|1000|5|2|||\nok"));
        events.writeBytes(bytes("D3|3|1500|4|4|5|21|4\ndeadboomshttps://example.com/h"));
        events.writeBytes(binary);
        events.writeBytes(bytes("E0|10|900|0|3|7||\nexpexpired"));

        List<StorageFormat.StoredEvent> decoded = StorageFormat.historyEvents(
                Map.of("at", bytes("2000"), "count", bytes("3"), "events", events.toByteArray()));

        assertThat(decoded).hasSize(3);
        StorageFormat.StoredEvent ok = decoded.get(0);
        assertThat(ok.jobId()).isEqualTo("ok");
        assertThat(ok.outcome()).isEqualTo("ACKED");
        assertThat(ok.attempts()).isEqualTo(1);
        assertThat(ok.maxAttempts()).isEqualTo(10);
        assertThat(ok.dueMs()).isEqualTo(1000);
        assertThat(ok.atMs()).isEqualTo(2000);
        assertThat(ok.payloadBytes()).isEqualTo(5);
        assertThat(ok.error()).isNull();
        assertThat(ok.callbackUrl()).isNull();
        assertThat(ok.payload()).isNull();
        StorageFormat.StoredEvent dead = decoded.get(1);
        assertThat(dead.jobId()).isEqualTo("dead");
        assertThat(dead.outcome()).isEqualTo("DEAD");
        assertThat(dead.error()).isEqualTo("booms");
        assertThat(dead.callbackUrl()).isEqualTo("https://example.com/h");
        assertThat(dead.payload()).isEqualTo(binary);
        assertThat(decoded.get(2).outcome()).isEqualTo("EXPIRED");
        assertThat(decoded.get(2).error()).isEqualTo("expired");
        assertThat(decoded.get(2).atMs()).isEqualTo(2000);
    }

    @Test
    void aOneEventEntryOfTheEarlierFormatDecodesToOneEvent() {
        Map<String, byte[]> fields = new HashMap<>();
        Map.of(
                        "id",
                        "j",
                        "outcome",
                        "CANCELLED",
                        "attempts",
                        "0",
                        "maxAttempts",
                        "10",
                        "due",
                        "5",
                        "at",
                        "6",
                        "payloadBytes",
                        "0")
                .forEach((k, v) -> fields.put(k, bytes(v)));

        assertThat(StorageFormat.historyEvents(fields))
                .containsExactly(new StorageFormat.StoredEvent("j", "CANCELLED", 0, 10, 5, 6, 0, null, null, null));
    }

    @Test
    void aMalformedEntryIsRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> batch("2", "A1|10|1000|5|2|||\nok"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("count 2, but 1 events");
        assertThatThrownBy(() -> batch("1", "A1|10|1000|5|9|||\nok"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("past the entry's end");
        assertThatThrownBy(() -> batch("1", "X1|10|1000|5|2|||\nok"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown outcome");
        assertThatThrownBy(() -> batch("1", "A1|10|1000|5"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("header ends early");
        assertThatThrownBy(() -> StorageFormat.historyEvents(Map.of("id", bytes("j"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neither an id nor events");
    }

    @Test
    void everyScriptThatMayEndJobsWritesItsEventsBeforeItReturns() throws IOException {
        // The functions of common.lua that append events; an event appended and not flushed is lost.
        Pattern ends = Pattern.compile("\\b(history_event|ack_all|trim_dead|take_due|take_due_by_priority)\\(");
        List<String> ending = new ArrayList<>();
        try (Stream<Path> scripts = Files.list(Path.of("target", "classes", "io", "hourglass", "lua"))) {
            for (Path script : scripts.toList()) {
                String name = script.getFileName().toString();
                String source = Files.readString(script);
                if (!name.equals("common.lua") && ends.matcher(source).find()) {
                    ending.add(name);
                    assertThat(source).as(name).contains("history_flush()");
                }
            }
        }
        assertThat(ending).contains("ack.lua", "claim.lua", "nack.lua", "cancel.lua");
    }

    private static List<StorageFormat.StoredEvent> batch(String count, String events) {
        return StorageFormat.historyEvents(Map.of("at", bytes("1"), "count", bytes(count), "events", bytes(events)));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
