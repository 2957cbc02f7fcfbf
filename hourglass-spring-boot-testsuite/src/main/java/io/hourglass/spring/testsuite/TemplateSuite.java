package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.Backoff;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.spring.HourglassPayloadCodec;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.PayloadConverter;
import io.hourglass.spring.TypedJobInfo;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.ParameterizedTypeReference;

/**
 * {@link HourglassTemplate}: schedule, get, cancel and reschedule with typed payloads, JSON through the application's
 * own Jackson mapper (its {@code spring.jackson.*} settings apply), raw {@code String} and {@code byte[]}, and the
 * payload codec's conditions.
 */
@RedisTest
public abstract class TemplateSuite extends SuiteSupport {

    @Test
    void aTypedPayloadIsScheduledAsJsonAndReadBack(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).run(context -> {
            HourglassTemplate template = context.getBean(HourglassTemplate.class);
            ScheduleResult scheduled = template.schedule(
                    "order-timeout", "order-42", new OrderTimeout(42, "unpaid"), Duration.ofMinutes(10));
            assertThat(scheduled.state()).isEqualTo(JobState.SCHEDULED);
            TypedJobInfo<OrderTimeout> job = template.get("order-timeout", "order-42", OrderTimeout.class)
                    .orElseThrow();
            assertThat(job.payload()).isEqualTo(new OrderTimeout(42, "unpaid"));
            assertThat(job.info().state()).isEqualTo(JobState.SCHEDULED);
            assertThat(job.info().payloadAsString()).contains("\"orderId\":42");
        });
    }

    @Test
    void theApplicationsJacksonSettingsApply(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE")
                .run(context -> {
                    assertThat(context).hasSingleBean(line().jsonMapperType());
                    assertThat(context.getBean(HourglassPayloadCodec.class)).isInstanceOf(line().expectedCodecType());
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule(
                            "order-timeout", "order-42", new OrderTimeout(42, "unpaid"), Duration.ofMinutes(10));
                    assertThat(template.hourglass()
                                    .get("order-timeout", "order-42")
                                    .orElseThrow()
                                    .payloadAsString())
                            .contains("\"order_id\":42");
                    assertThat(template.get("order-timeout", "order-42", OrderTimeout.class)
                                    .orElseThrow()
                                    .payload()
                                    .orderId())
                            .isEqualTo(42);
                });
    }

    @Test
    void stringsAndBytesAreStoredAsTheyAre(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).run(context -> {
            HourglassTemplate template = context.getBean(HourglassTemplate.class);
            template.schedule("raw", "text", "{\"not\":\"re-encoded\"}", Duration.ofMinutes(1));
            template.schedule("raw", "bytes", new byte[] {0, 1, 2, (byte) 255}, Duration.ofMinutes(1));
            assertThat(template.hourglass().get("raw", "text").orElseThrow().payloadAsString())
                    .isEqualTo("{\"not\":\"re-encoded\"}");
            assertThat(template.get("raw", "text", String.class).orElseThrow().payload())
                    .isEqualTo("{\"not\":\"re-encoded\"}");
            assertThat(template.get("raw", "bytes", byte[].class).orElseThrow().payload())
                    .containsExactly(0, 1, 2, (byte) 255);
        });
    }

    @Test
    void genericPayloadsAreReadWithATypeReference(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).run(context -> {
            HourglassTemplate template = context.getBean(HourglassTemplate.class);
            template.schedule(
                    "batch", "b-1", List.of(new OrderTimeout(1, "a"), new OrderTimeout(2, "b")), Duration.ofMinutes(1));
            List<OrderTimeout> payload = template.get(
                            "batch", "b-1", new ParameterizedTypeReference<List<OrderTimeout>>() {})
                    .orElseThrow()
                    .payload();
            assertThat(payload).containsExactly(new OrderTimeout(1, "a"), new OrderTimeout(2, "b"));
        });
    }

    @Test
    void cancelRemovesAJobAndRescheduleMovesIt(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).run(context -> {
            HourglassTemplate template = context.getBean(HourglassTemplate.class);
            ScheduleResult first =
                    template.schedule("order-timeout", "order-1", new OrderTimeout(1, "x"), Duration.ofMinutes(10));
            ScheduleResult moved = template.reschedule("order-timeout", "order-1", Duration.ofHours(1))
                    .orElseThrow();
            assertThat(moved.dueAt()).isAfter(first.dueAt().plus(Duration.ofMinutes(49)));
            Instant at = Instant.now().plus(Duration.ofDays(1));
            assertThat(template.reschedule("order-timeout", "order-1", at)
                            .orElseThrow()
                            .dueAt())
                    .isEqualTo(at.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
            assertThat(template.cancel("order-timeout", "order-1")).isTrue();
            assertThat(template.cancel("order-timeout", "order-1")).isFalse();
            assertThat(template.get("order-timeout", "order-1", OrderTimeout.class))
                    .isEmpty();
            assertThat(template.reschedule("order-timeout", "order-1", Duration.ZERO))
                    .isEmpty();
        });
    }

    @Test
    void theRequestsOptionsAreApplied(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).run(context -> {
            HourglassTemplate template = context.getBean(HourglassTemplate.class);
            Instant runAt = Instant.now().plus(Duration.ofMinutes(3));
            ScheduleResult generated =
                    template.schedule("refund-poll", new OrderTimeout(7, "poll"), job -> job.runAt(runAt)
                            .maxAttempts(60)
                            .backoff(Backoff.fixed(Duration.ofMinutes(1))));
            assertThat(generated.id()).isNotBlank();
            TypedJobInfo<OrderTimeout> job = template.get("refund-poll", generated.id(), OrderTimeout.class)
                    .orElseThrow();
            assertThat(job.info().maxAttempts()).isEqualTo(60);
            assertThat(job.info().backoff()).isEqualTo(Backoff.fixed(Duration.ofMinutes(1)));
            assertThat(template.schedule(
                                    "order-timeout", "o-1", "x", Instant.now().plusSeconds(60))
                            .state())
                    .isEqualTo(JobState.SCHEDULED);
            assertThatThrownBy(() -> template.schedule("order-timeout", "o-1", "y", Duration.ZERO))
                    .isInstanceOf(JobAlreadyExistsException.class);
            assertThat(template.schedule(
                                    "order-timeout", "y", job2 -> job2.id("o-1").onConflict(OnConflict.KEEP))
                            .outcome())
                    .isEqualTo(ScheduleResult.Outcome.KEPT);
            assertThatThrownBy(() -> template.schedule("order-timeout", null, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("payload");
        });
    }

    @Test
    void anApplicationCodecReplacesJson(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(HourglassPayloadCodec.class, UpperCaseCodec::new)
                .run(context -> {
                    assertThat(context).hasSingleBean(HourglassPayloadCodec.class);
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule("t", "1", new OrderTimeout(1, "x"), Duration.ofMinutes(1));
                    assertThat(template.hourglass().get("t", "1").orElseThrow().payloadAsString())
                            .isEqualTo("ORDER 1");
                });
    }

    @Test
    void withoutAnApplicationMapperADefaultJacksonMapperIsUsed(HourglassFactory redis) {
        new org.springframework.boot.test.context.runner.ApplicationContextRunner()
                .withConfiguration(org.springframework.boot.autoconfigure.AutoConfigurations.of(
                        hourglassAutoConfigurations().toArray(Class<?>[]::new)))
                .withPropertyValues(
                        "hourglass.redis.uri=" + redis.redisUri(), "hourglass.namespace=" + redis.namespace())
                .run(context -> {
                    assertThat(context).doesNotHaveBean(line().jsonMapperType());
                    assertThat(context.getBean(HourglassPayloadCodec.class)).isInstanceOf(line().expectedCodecType());
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule("t", "1", new OrderTimeout(1, "x"), Duration.ofMinutes(1));
                    assertThat(template.get("t", "1", OrderTimeout.class)
                                    .orElseThrow()
                                    .payload())
                            .isEqualTo(new OrderTimeout(1, "x"));
                });
    }

    @Test
    void withoutJacksonOnlyStringAndBytePayloadsAreAccepted(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withClassLoader(new FilteredClassLoader("com.fasterxml.jackson.databind", "tools.jackson.databind"))
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(HourglassPayloadCodec.class);
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule("t", "1", "text", Duration.ofMinutes(1));
                    assertThat(context.getBean(PayloadConverter.class).canConvert(OrderTimeout.class))
                            .isFalse();
                    assertThatThrownBy(() -> template.schedule("t", "2", new OrderTimeout(1, "x"), Duration.ZERO))
                            .isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("HourglassPayloadCodec");
                });
    }

    /** A codec of the application's own. */
    static final class UpperCaseCodec implements HourglassPayloadCodec {
        @Override
        public byte[] encode(Object payload) {
            return ("ORDER " + ((OrderTimeout) payload).orderId()).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Object decode(byte[] payload, Type type) {
            return new OrderTimeout(Long.parseLong(new String(payload, StandardCharsets.UTF_8).substring(6)), "?");
        }
    }
}
