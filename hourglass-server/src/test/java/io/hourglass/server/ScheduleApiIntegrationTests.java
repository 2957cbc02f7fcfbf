package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code /v1/schedules} over real HTTP and a real Redis: put, read with next fire times, list, delete; each tick
 * becoming a job the pull API hands out; a 400 naming the field, with nothing stored, for each bad input; and tokens
 * that see and change only the schedules of their topics.
 */
@ServerSettings("--hourglass.tokens=" + ScheduleApiIntegrationTests.TOKENS)
class ScheduleApiIntegrationTests extends ServerTestSupport {
    static final String ADMIN = "schedule-admin-0123456789";
    static final String NOTIFY_ADMIN = "notify-admin-0123456789";
    static final String PRODUCER = "producer-0123456789abcdef";
    static final String TOKENS = "[{\"token\": \"" + ADMIN + "\", \"topics\": [\"*\"], \"rights\": [\"admin\"]},"
            + "{\"token\": \"" + NOTIFY_ADMIN + "\", \"topics\": [\"notify-*\"], \"rights\": [\"admin\"]},"
            + "{\"token\": \"" + PRODUCER + "\", \"topics\": [\"*\"], \"rights\": [\"produce\"]}]";
    private static final String JSON = "application/json";

    private static Api admin() {
        return api.withToken(ADMIN);
    }

    private static Api.Response put(Api caller, String name, String body) {
        return caller.send("PUT", "/v1/schedules/" + name, body, JSON);
    }

    @Test
    void aScheduleIsPutReadListedAndDeleted() {
        String t = topic();
        var created = put(
                admin(),
                "nightly",
                json(
                        "topic",
                        t,
                        "cron",
                        "0 3 * * *",
                        "zone",
                        "Europe/Berlin",
                        "payload",
                        Map.of("kind", "daily"),
                        "maxAttempts",
                        3,
                        "misfirePolicy",
                        "skip"));
        assertThat(created.status()).as(created.raw().body()).isEqualTo(200);
        JsonNode view = created.body();
        assertThat(view.get("name").asText()).isEqualTo("nightly");
        assertThat(view.get("topic").asText()).isEqualTo(t);
        assertThat(view.get("cron").asText()).isEqualTo("0 3 * * *");
        assertThat(view.get("zone").asText()).isEqualTo("Europe/Berlin");
        assertThat(view.get("maxAttempts").asInt()).isEqualTo(3);
        assertThat(view.get("misfirePolicy").asText()).isEqualTo("skip");
        assertThat(view.get("lastTick").isNull()).isTrue();
        assertThat(view.has("callbackUrl")).isFalse();
        assertThat(view.get("nextFireTimes")).hasSize(5);
        assertThat(Instant.parse(view.get("nextFireTimes").get(0).asText())).isAfter(Instant.now());

        var read = admin().get("/v1/schedules/nightly");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.body().get("updatedAt")).isEqualTo(view.get("updatedAt"));
        assertThat(read.body().get("payload").toString()).isEqualTo("{\"kind\":\"daily\"}");
        var listed = admin().get("/v1/schedules");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body().findValuesAsText("name")).containsExactly("nightly");

        var deleted = admin().delete("/v1/schedules/nightly");
        assertThat(deleted.status()).isEqualTo(204);
        var gone = admin().get("/v1/schedules/nightly");
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.error()).isEqualTo("name: no schedule 'nightly'");
        assertThat(admin().delete("/v1/schedules/nightly").status()).isEqualTo(404);
    }

    @Test
    void eachTickBecomesAJobThatPullWorkersReserve() {
        String t = topic();
        var created = put(admin(), "every-second", json("topic", t, "cron", "* * * * * *", "payload", "tick"));
        assertThat(created.status()).as(created.raw().body()).isEqualTo(200);
        var reserved = admin().post("/v1/topics/" + t + "/reservations", json("max", 1, "waitMs", 5000));
        assertThat(admin().delete("/v1/schedules/every-second").status()).isEqualTo(204);
        assertThat(reserved.status()).as(reserved.raw().body()).isEqualTo(200);
        JsonNode job = reserved.body().get(0);
        assertThat(job.get("id").asText()).startsWith("schedule:every-second:");
        assertThat(job.get("payload").asText()).isEqualTo("tick");
    }

    @Test
    void badInputIsA400NamingTheFieldAndStoresNothing() {
        String t = topic();
        List<String[]> cases = List.of(
                new String[] {"bad-cron", json("topic", t, "cron", "every day", "payload", 1), "cron:"},
                new String[] {
                    "bad-zone", json("topic", t, "cron", "0 3 * * *", "zone", "Mars/Olympus", "payload", 1), "zone:"
                },
                new String[] {"bad-topic", json("topic", "a b", "cron", "0 3 * * *", "payload", 1), "topic:"},
                new String[] {"no-topic", json("cron", "0 3 * * *", "payload", 1), "topic:"},
                new String[] {"no-cron", json("topic", t, "payload", 1), "cron:"},
                new String[] {"no-payload", json("topic", t, "cron", "0 3 * * *"), "payload:"},
                new String[] {
                    "bad-policy",
                    json("topic", t, "cron", "0 3 * * *", "payload", 1, "misfirePolicy", "x"),
                    "misfirePolicy:"
                },
                new String[] {"bad-lease", json("topic", t, "cron", "0 3 * * *", "payload", 1, "leaseMs", 0), "leaseMs:"
                },
                new String[] {
                    "inward",
                    json("topic", t, "cron", "0 3 * * *", "payload", 1, "callbackUrl", "http://127.0.0.1:9/x"),
                    "callbackUrl:"
                },
                new String[] {"a:b", json("topic", t, "cron", "0 3 * * *", "payload", 1), "name:"},
                new String[] {"n".repeat(101), json("topic", t, "cron", "0 3 * * *", "payload", 1), "name:"},
                new String[] {"blank-cron", json("topic", t, "cron", "   ", "payload", 1), "cron:"},
                new String[] {"empty-zone", json("topic", t, "cron", "0 3 * * *", "zone", "", "payload", 1), "zone:"},
                new String[] {
                    "ftp",
                    json("topic", t, "cron", "0 3 * * *", "payload", 1, "callbackUrl", "ftp://x/y"),
                    "callbackUrl:"
                },
                new String[] {
                    "attempts", json("topic", t, "cron", "0 3 * * *", "payload", 1, "maxAttempts", 0), "maxAttempts:"
                },
                new String[] {
                    "long-lease",
                    json("topic", t, "cron", "0 3 * * *", "payload", 1, "leaseMs", Long.MAX_VALUE),
                    "leaseMs:"
                });
        for (String[] c : cases) {
            var answer = put(admin(), c[0], c[1]);
            assertThat(answer.status()).as(c[0] + ": " + answer.raw().body()).isEqualTo(400);
            assertThat(answer.error()).as(c[0]).startsWith(c[2]);
        }
        assertThat(admin().get("/v1/schedules").body()).isEmpty();
        assertThat(snapshot().keys().keySet()).noneMatch(key -> key.contains(":schedules"));
    }

    @Test
    void aTokenSeesAndChangesOnlyTheSchedulesOfItsTopics() {
        String notify = "notify-" + topic();
        String other = topic();
        assertThat(put(admin(), "n", json("topic", notify, "cron", "0 3 * * *", "payload", 1))
                        .status())
                .isEqualTo(200);
        assertThat(put(admin(), "o", json("topic", other, "cron", "0 3 * * *", "payload", 1))
                        .status())
                .isEqualTo(200);
        Api notifyAdmin = api.withToken(NOTIFY_ADMIN);

        assertThat(notifyAdmin.get("/v1/schedules").body().findValuesAsText("name"))
                .containsExactly("n");
        assertThat(notifyAdmin.get("/v1/schedules/o").status()).isEqualTo(404);
        assertThat(notifyAdmin.delete("/v1/schedules/o").status()).isEqualTo(404);
        var moved = put(notifyAdmin, "o", json("topic", notify, "cron", "0 4 * * *", "payload", 1));
        assertThat(moved.status()).as(moved.raw().body()).isEqualTo(403);
        assertThat(moved.error()).startsWith("Authorization:");
        var elsewhere = put(notifyAdmin, "x", json("topic", other, "cron", "0 4 * * *", "payload", 1));
        assertThat(elsewhere.status()).isEqualTo(403);
        assertThat(put(notifyAdmin, "n", json("topic", notify, "cron", "0 4 * * *", "payload", 2))
                        .status())
                .isEqualTo(200);
        assertThat(admin().get("/v1/schedules/o").body().get("cron").asText()).isEqualTo("0 3 * * *");

        var producer = api.withToken(PRODUCER);
        assertThat(producer.get("/v1/schedules").status()).isEqualTo(403);
        assertThat(put(producer, "p", json("topic", other, "cron", "0 3 * * *", "payload", 1))
                        .status())
                .isEqualTo(403);
        assertThat(api.get("/v1/schedules").status()).isEqualTo(401);
        assertThat(admin().delete("/v1/schedules/n").status()).isEqualTo(204);
        assertThat(admin().delete("/v1/schedules/o").status()).isEqualTo(204);
    }
}
