package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.io.output.TeeOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The server with a job history ({@code --history-jdbc-url}) on a real PostgreSQL and Redis: jobs acked, dead and
 * cancelled through the API are archived and served by {@code GET /v1/history} with its filters and pages; bad
 * parameters are 400; a token limited to some topics reads only theirs; the dropped-events meter is in the scrape; and
 * the dashboard's history page, in headless Chromium, finds a job that a job page links to. With a cold tier
 * ({@code --tier-jdbc-url}) on the same PostgreSQL, a job due beyond the horizon (2 h) is a row there, read and
 * cancelled through the API as any job, and the feeder's meters are in the scrape; {@code GET /v1/tier} and the
 * dashboard show what waits there, and both the tier and schedules beyond the horizon are 503 while PostgreSQL is down.
 */
@RedisTest
@PostgresTest
class HistoryServerIntegrationTests {
    static final String ADMIN = "admin-0123456789abcdef";
    static final String ORDERS = "orders-0123456789abcdef";
    static final String ORDERS_ADMIN = "orders-admin-0123456789abcdef";
    static final String TOKENS = "[{\"token\": \"" + ADMIN + "\", \"topics\": [\"*\"], \"rights\": [\"admin\"]},"
            + "{\"token\": \"" + ORDERS + "\", \"topics\": [\"orders-*\"], \"rights\": [\"produce\"]},"
            + "{\"token\": \"" + ORDERS_ADMIN + "\", \"topics\": [\"orders-*\"], \"rights\": [\"admin\"]}]";
    static final long HORIZON_MS = Duration.ofHours(2).toMillis();

    static final String PASSWORD = "history-s3cret-password";
    private static final PrintStream CONSOLE = System.out;
    private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();
    private static final AtomicInteger TOPICS = new AtomicInteger();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static org.springframework.context.ConfigurableApplicationContext context;
    private static Api admin;
    private static Api orders;
    private static String jdbcUrl;
    private static Api ordersAdmin;
    private static PostgresProcess postgres;

    @BeforeAll
    static void startServer(RedisServerProcess redis, PostgresProcess postgres) {
        // The log goes to the console (logback-test.xml), which writes to whatever System.out is at each line.
        System.setOut(new PrintStream(new TeeOutputStream(CONSOLE, LOG), true, StandardCharsets.UTF_8));
        HistoryServerIntegrationTests.postgres = postgres;
        context = org.springframework.boot.SpringApplication.run(
                HourglassServer.class,
                "--server.port=0",
                "--hourglass.redis=" + redis.uri(),
                "--hourglass.namespace=history-tests",
                "--hourglass.tokens=" + TOKENS,
                // The test's PostgreSQL trusts local connections, so any password does; it must reach no log.
                "--hourglass.history-jdbc-url=" + postgres.jdbcUrl() + "?password=" + PASSWORD,
                "--hourglass.history-jdbc-user=" + postgres.user(),
                "--hourglass.history-jdbc-password=" + PASSWORD,
                // The cold tier's flags (--tier-jdbc-url, --tier-horizon) set these; 2 h keeps endThree's jobs in
                // Redis.
                "--hourglass.tier.jdbc.url=" + postgres.jdbcUrl() + "?password=" + PASSWORD,
                "--hourglass.tier.jdbc.user=" + postgres.user(),
                "--hourglass.tier.horizon=2h");
        jdbcUrl = postgres.jdbcUrl();
        Api api = new Api(ServerTestSupport.portOf(context));
        admin = api.withToken(ADMIN);
        orders = api.withToken(ORDERS);
        ordersAdmin = api.withToken(ORDERS_ADMIN);
    }

    @AfterAll
    static void stopServer() {
        if (context != null) {
            context.close();
        }
        System.setOut(CONSOLE);
    }

    @Test
    void theServerSaysWhereItArchivesButNeverThePassword() {
        String log;
        synchronized (LOG) {
            log = LOG.toString(StandardCharsets.UTF_8);
        }
        assertThat(log)
                .contains("job history: archiving namespace history-tests (1 shards) into")
                .contains("password=****")
                .doesNotContain(PASSWORD);
    }

    private static String topic() {
        return "orders-" + TOPICS.incrementAndGet();
    }

    private static String query(String... namesAndValues) {
        StringBuilder q = new StringBuilder("/v1/history?");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            q.append(i == 0 ? "" : "&")
                    .append(namesAndValues[i])
                    .append('=')
                    .append(URLEncoder.encode(namesAndValues[i + 1], StandardCharsets.UTF_8));
        }
        return q.toString();
    }

    private static List<String> ids(Api.Response page) {
        assertThat(page.status()).as(page.raw().body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        page.body().get("entries").forEach(e -> ids.add(e.get("id").asText()));
        return ids;
    }

    /** Acks {@code acked}, kills {@code dead} (one attempt, nacked) and cancels {@code cancelled}, in this order. */
    private static void endThree(String t, String acked, String dead, String cancelled) {
        admin.post("/v1/topics/" + t + "/jobs", json("id", acked, "payload", 1));
        admin.post("/v1/topics/" + t + "/jobs", json("id", dead, "payload", 2, "maxAttempts", 1));
        admin.post("/v1/topics/" + t + "/jobs", json("id", cancelled, "payload", 3, "delayMs", 3_600_000));
        JsonNode deliveries = admin.post("/v1/topics/" + t + "/reservations", json("max", 2, "waitMs", 2000))
                .body();
        assertThat(deliveries).hasSize(2);
        for (JsonNode d : deliveries) {
            String id = d.get("id").asText();
            String receipt = d.get("receipt").asText();
            var answer = id.equals(acked)
                    ? admin.post("/v1/topics/" + t + "/jobs/" + id + "/ack", json("receipt", receipt))
                    : admin.post(
                            "/v1/topics/" + t + "/jobs/" + id + "/nack", json("receipt", receipt, "error", "boom"));
            assertThat(answer.status()).isEqualTo(204);
        }
        assertThat(admin.delete("/v1/topics/" + t + "/jobs/" + cancelled).status())
                .isEqualTo(204);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(ids(admin.get(query("topic", t))))
                .hasSize(3));
    }

    @Test
    void endedJobsAreServedNewestFirstWithFiltersAndPages() {
        String t = topic();
        endThree(t, "a", "b", "c");

        Api.Response all = admin.get(query("topic", t));
        assertThat(ids(all)).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(ids(all).get(0)).isEqualTo("c");
        JsonNode dead = all.body().get("entries").get(ids(all).indexOf("b"));
        assertThat(dead.get("outcome").asText()).isEqualTo("DEAD");
        assertThat(dead.get("lastError").asText()).contains("boom");
        assertThat(dead.get("attempts").asInt()).isEqualTo(1);
        assertThat(dead.get("maxAttempts").asInt()).isEqualTo(1);
        assertThat(Instant.parse(dead.get("completedAt").asText()))
                .isBefore(Instant.now().plusSeconds(5));
        assertThat(dead.has("payload")).as("payloads are not kept by default").isFalse();
        assertThat(dead.get("payloadBytes").asInt()).isEqualTo(1);
        assertThat(all.body().get("nextCursor").isNull()).isTrue();

        assertThat(ids(admin.get(query("topic", t, "outcome", "dead")))).containsExactly("b");
        assertThat(ids(admin.get(query("topic", t, "outcome", "CANCELLED")))).containsExactly("c");
        assertThat(ids(admin.get(query("id", "a", "topic", t)))).containsExactly("a");
        String later = "" + Instant.now().plusSeconds(3600).toEpochMilli();
        assertThat(ids(admin.get(query("topic", t, "from", later)))).isEmpty();
        assertThat(ids(admin.get(query("topic", t, "to", "2000-01-01T00:00:00Z"))))
                .isEmpty();

        Api.Response first = admin.get(query("topic", t, "limit", "2"));
        assertThat(ids(first)).hasSize(2).startsWith("c");
        Api.Response second = admin.get(query(
                "topic",
                t,
                "limit",
                "2",
                "cursor",
                first.body().get("nextCursor").asText()));
        assertThat(ids(second)).hasSize(1).doesNotContainAnyElementsOf(ids(first));
        assertThat(second.body().get("nextCursor").isNull()).isTrue();
    }

    @Test
    void badParametersAre400NamingThem() {
        String[][] cases = {
            {"outcome", "LOST", "outcome:"},
            {"from", "yesterday", "from:"},
            {"to", "99999999999999999999", "to:"},
            {"limit", "0", "limit:"},
            {"limit", "many", "limit:"},
            {"cursor", "nonsense", "cursor:"},
            {"colour", "red", "colour:"}
        };
        for (String[] c : cases) {
            Api.Response answer = admin.get(query(c[0], c[1]));
            assertThat(answer.status()).as(c[0] + "=" + c[1]).isEqualTo(400);
            assertThat(answer.error()).as(c[0] + "=" + c[1]).startsWith(c[2]);
        }
        Api.Response backwards = admin.get(query("from", "2026-11-26T10:00:00Z", "to", "2026-11-26T09:00:00Z"));
        assertThat(backwards.status()).isEqualTo(400);
        assertThat(backwards.error()).startsWith("to:");
    }

    @Test
    void aTokenLimitedToTopicsReadsOnlyTheirs() {
        String t = topic();
        endThree(t, "x", "y", "z");

        assertThat(ids(orders.get(query("topic", t)))).containsExactlyInAnyOrder("x", "y", "z");
        Api.Response noTopic = orders.get(query("id", "x"));
        assertThat(noTopic.status()).isEqualTo(403);
        assertThat(noTopic.error()).startsWith("topic:");
        assertThat(orders.get(query("topic", "mails")).status()).isEqualTo(403);
        assertThat(new Api(ServerTestSupport.portOf(context)).get("/v1/history").status())
                .isEqualTo(401);
    }

    @Test
    void aJobBeyondTheTierHorizonIsARowInPostgresServedByTheApiAsAnyJob() throws Exception {
        assertThat(context.getBeansOfType(io.hourglass.tier.jdbc.JdbcColdTier.class))
                .hasSize(1);
        String t = topic();
        assertThat(admin.post("/v1/topics/" + t + "/jobs", json("id", "far", "payload", 1, "delayMs", 3 * 3_600_000))
                        .status())
                .isEqualTo(201);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(jdbcUrl, "postgres", "");
                java.sql.PreparedStatement count =
                        c.prepareStatement("SELECT count(*) FROM hourglass_cold_jobs WHERE topic = ? AND id = ?")) {
            count.setString(1, t);
            count.setString(2, "far");
            try (java.sql.ResultSet r = count.executeQuery()) {
                r.next();
                assertThat(r.getInt(1)).isEqualTo(1);
            }
        }
        Api.Response job = admin.get("/v1/topics/" + t + "/jobs/far");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.body().get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(admin.delete("/v1/topics/" + t + "/jobs/far").status()).isEqualTo(204);
        assertThat(admin.get("/v1/topics/" + t + "/jobs/far").status()).isEqualTo(404);
    }

    @Test
    void theDroppedEventsMeterIsInTheScrape() throws Exception {
        HttpResponse<String> scrape = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ServerTestSupport.portOf(context) + "/metrics"))
                        .header("Authorization", "Bearer " + ADMIN)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body())
                .contains("\nhourglass_history_dropped_events_total 0.0\n")
                .contains("\nhourglass_tier_feeder_lag_seconds 0.0\n")
                .contains("\nhourglass_tier_feeder_moved_jobs_total 0.0\n");
    }

    /** Schedules a job a day ahead, beyond the horizon: it waits in PostgreSQL. */
    private static void scheduleCold(String t, String id) {
        Api.Response created =
                admin.post("/v1/topics/" + t + "/jobs", json("id", id, "payload", 1, "delayMs", 86_400_000));
        assertThat(created.status()).as(created.raw().body()).isEqualTo(201);
    }

    @Test
    void theTierShowsTheHorizonAndTheJobsWaitingInPostgres() {
        String t = topic();
        String mails = "mails-" + TOPICS.incrementAndGet();
        scheduleCold(t, "far-1");
        scheduleCold(t, "far-2");
        scheduleCold(mails, "far-3");
        admin.post("/v1/topics/" + t + "/jobs", json("id", "near", "payload", 1, "delayMs", 60_000));

        Api.Response answer = admin.get("/v1/tier");
        assertThat(answer.status()).as(answer.raw().body()).isEqualTo(200);
        JsonNode tier = answer.body();
        assertThat(tier.get("configured").asBoolean()).isTrue();
        assertThat(tier.get("horizonMs").asLong()).isEqualTo(HORIZON_MS);
        assertThat(tier.get("lagMs").asLong()).isZero();
        // Nothing of this class's comes within the horizon: the feeder has nothing to move.
        assertThat(tier.get("movedJobs").asLong()).isZero();
        JsonNode waiting = tier.get("waiting");
        assertThat(waiting.get("exact").asBoolean()).isTrue();
        assertThat(waiting.get("topics").get(t).asLong()).isEqualTo(2);
        assertThat(waiting.get("topics").get(mails).asLong()).isEqualTo(1);
        long total = 0;
        for (JsonNode n : waiting.get("topics")) {
            total += n.asLong();
        }
        assertThat(waiting.get("jobs").asLong()).isEqualTo(total);
        assertThat(Instant.parse(waiting.get("earliestDueAt").asText()))
                .isAfter(Instant.now().plus(Duration.ofHours(23)));
        assertThat(waiting.get("tableRowsEstimate").isIntegralNumber()).isTrue();

        // A token limited to some topics sees the namespace's totals, and only its own topics' counts.
        JsonNode limited = ordersAdmin.get("/v1/tier").body().get("waiting");
        assertThat(limited.get("jobs").asLong()).isEqualTo(total);
        assertThat(limited.get("topics").has(t)).isTrue();
        assertThat(limited.get("topics").has(mails)).isFalse();
        assertThat(orders.get("/v1/tier").status()).isEqualTo(403);
        assertThat(new Api(ServerTestSupport.portOf(context)).get("/v1/tier").status())
                .isEqualTo(401);
        Api.Response unknown = admin.get("/v1/tier?colour=red");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.error()).startsWith("colour:");
    }

    @Test
    void whilePostgresIsDownTheTierAndSchedulesBeyondTheHorizonAre503AndJobsWithinItGoOn() {
        String t = topic();
        postgres.stop();
        try {
            Api.Response tier = admin.get("/v1/tier");
            assertThat(tier.status()).isEqualTo(503);
            assertThat(tier.error()).startsWith("tier: cold tier (PostgreSQL): reading the backlog failed");
            assertThat(tier.raw().headers().firstValue("Retry-After")).contains("5");
            Api.Response far =
                    admin.post("/v1/topics/" + t + "/jobs", json("id", "far", "payload", 1, "delayMs", 86_400_000));
            assertThat(far.status()).isEqualTo(503);
            assertThat(far.error()).startsWith("tier: cold tier (PostgreSQL): storing a job failed");
            // A generated id: the server need not look for it in the cold tier.
            Api.Response near = admin.post("/v1/topics/" + t + "/jobs", json("payload", 1, "delayMs", 60_000));
            assertThat(near.status()).as(near.raw().body()).isEqualTo(201);
        } finally {
            postgres.start();
        }
        scheduleCold(t, "far");
        assertThat(admin.get("/v1/tier")
                        .body()
                        .get("waiting")
                        .get("topics")
                        .get(t)
                        .asLong())
                .isEqualTo(1);
    }

    @Test
    void theDashboardShowsTheColdTierSearchesTheHistoryAndAJobPageLinksToIt() throws Exception {
        String t = topic();
        endThree(t, "ok", "broken", "dropped");
        scheduleCold(t, "later");
        try (Browser browser = Browser.start(ServerTestSupport.portOf(context))) {
            // A route that calls no API: a 401 answered late to the topics page would clear the token set next.
            browser.open("#/no-such-page");
            browser.script("sessionStorage.setItem('hourglass.token', '" + ADMIN + "')");

            // The topics page shows what waits in the cold tier.
            browser.open("");
            browser.awaitText(
                    By.id("tier-horizon"), Duration.ofMillis(HORIZON_MS).toHours() + " h");
            assertThat(browser.await(By.id("tier-lag")).getText()).isEqualTo("none: the feeder keeps up");
            browser.awaitText(By.id("tier-topics"), t + " 1");
            assertThat(browser.await(By.cssSelector("#tier-earliest span")).getAttribute("title"))
                    .isEqualTo(admin.get("/v1/tier")
                            .body()
                            .get("waiting")
                            .get("earliestDueAt")
                            .asText());
            // The README's picture of the part (docs/dashboard-cold-tier.png is a copy).
            browser.screenshot(Path.of("target", "dashboard-screenshots", "dashboard-cold-tier.png"));

            // A dead job is still in Redis: its page links to its history.
            browser.open("#/topics/" + t + "/jobs/broken");
            browser.await(By.id("job-history")).click();
            WebElement row = browser.await(By.cssSelector("#history-list tr[data-id='broken']"));
            assertThat(row.getText()).contains("DEAD", "boom");

            // First every topic's dead jobs, then this topic's acked ones through the form.
            browser.open("#/history?outcome=DEAD");
            browser.await(By.cssSelector("#history-list tr[data-id='broken']"));
            browser.await(By.id("history-topic")).sendKeys(t);
            new Select(browser.await(By.id("history-outcome"))).selectByValue("ACKED");
            browser.await(By.id("history-search")).click();
            browser.await(By.cssSelector("#history-list tr[data-id='ok']"));
            assertThat(browser.driver.findElements(By.cssSelector("#history-list tbody tr")))
                    .hasSize(1);
        }
    }
}
