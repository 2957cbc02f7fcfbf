package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Backoff;
import io.hourglass.Delivery;
import io.hourglass.JobRequest;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What a job record looks like in Redis: fields at their stored defaults take no bytes, because every byte of a
 * record is paid once per job in the backlog (BENCHMARKS.md, workload 4).
 */
@RedisTest
class JobRecordFormatIntegrationTests {
  private static final String JOBS = "hg:{fmt:t:0}:jobs";

  private static String record(RedisServerProcess redis, String id) {
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      return c.sync().hget(JOBS, id);
    } finally {
      client.shutdown();
    }
  }

  @Test
  void aJobWithDefaultsStoresOnlyItsDueTimeBeforeThePayload(HourglassFactory factory, RedisServerProcess redis) {
    var hourglass = factory.create(b -> b.namespace("fmt"));
    Instant due = Instant.ofEpochMilli(System.currentTimeMillis() + 86_400_000L);
    hourglass.schedule(JobRequest.builder("t").id("plain").payload("order-42").runAt(due).build());

    assertThat(record(redis, "plain")).isEqualTo(due.toEpochMilli() + "\norder-42");
  }

  @Test
  void aClaimOfAJobWithDefaultsAddsOnlyTheAttemptAndReceipt(HourglassFactory factory, RedisServerProcess redis) {
    var hourglass = factory.create(b -> b.namespace("fmt"));
    Instant due = Instant.ofEpochMilli(System.currentTimeMillis() - 1000);
    hourglass.schedule(JobRequest.builder("t").id("plain").payload("a|b\nc").runAt(due).build());

    Delivery d = hourglass.reserve("t", 1, null).get(0);
    assertThat(record(redis, "plain")).isEqualTo(due.toEpochMilli() + "|1|||" + d.receipt() + "\na|b\nc");
    assertThat(d.attempt()).isEqualTo(1);
    assertThat(d.leaseUntil()).isAfter(Instant.now().plusSeconds(25));
    assertThat(d.payloadAsString()).isEqualTo("a|b\nc");
  }

  @Test
  void fieldsAwayFromTheirDefaultsAreWrittenAndTheirDeliveriesRoundTrip(HourglassFactory factory,
      RedisServerProcess redis) {
    var hourglass = factory.create(b -> b.namespace("fmt"));
    hourglass.schedule(JobRequest.builder("t").id("custom").payload("p").maxAttempts(3)
        .lease(Duration.ofSeconds(5)).build());
    assertThat(record(redis, "custom")).matches("\\d{13}\\|\\|3\\|5000\np");

    Delivery d = hourglass.reserve("t", 1, null).get(0);
    assertThat(record(redis, "custom")).matches("\\d{13}\\|1\\|3\\|5000\\|" + d.receipt() + "\np");
    assertThat(d.attempt()).isEqualTo(1);
    assertThat(d.payloadAsString()).isEqualTo("p");

    hourglass.nack("t", "custom", d.receipt(), "boom", Duration.ofHours(1));
    assertThat(record(redis, "custom")).matches("\\d{13}\\|1\\|3\\|5000\np");
    assertThat(hourglass.get("t", "custom").orElseThrow().maxAttempts()).isEqualTo(3);
  }

  @Test
  void aClaimChangesOnlyTheAttemptAndReceiptWhateverThePayloadHolds(HourglassFactory factory,
      RedisServerProcess redis) {
    var hourglass = factory.create(b -> b.namespace("fmt"));
    String payload = "a|b\nc|d\n";
    hourglass.schedule(JobRequest.builder("t").id("odd").payload(payload).backoff(Backoff.fixed(Duration.ZERO))
        .build());
    String scheduled = record(redis, "odd");
    assertThat(scheduled).matches("\\d{13}\\|\\|\\|\\|\\|[^|\n]+\n" + Pattern.quote(payload));

    Delivery first = hourglass.reserve("t", 1, null).get(0);
    String header = scheduled.substring(0, scheduled.indexOf('\n'));
    assertThat(record(redis, "odd")).isEqualTo(header.replaceFirst("\\|\\|\\|\\|\\|",
        "|1|||" + first.receipt() + "|") + "\n" + payload);
    hourglass.nack("t", "odd", first.receipt(), "boom", Duration.ZERO);

    Delivery second = hourglass.reserve("t", 1, null).get(0);
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.payloadAsString()).isEqualTo(payload);
    assertThat(record(redis, "odd")).endsWith("|2|||" + second.receipt() + header.substring(header.lastIndexOf('|'))
        + "\n" + payload);
  }
}
