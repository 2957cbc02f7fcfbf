package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Hourglass;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard in a real headless Chromium against the real server and Redis, without tokens (development mode, no
 * sign-in): the topics page lists the topics and refreshes by itself, a dead job is requeued and a topic paused and
 * resumed with their buttons, a topic's flow control changed with its form, the chart draws the history, the job page
 * shows the payload and times, and values from the jobs are shown as text, never run as HTML. Without a cold tier, the
 * topics page says so. {@code screenshotsOfEachPage} saves 1280x800 PNGs of the three pages under
 * {@code target/dashboard-screenshots/} (the ones in {@code docs/} are copies).
 */
@ServerSettings({"--hourglass.insecure=true"})
class DashboardBrowserTests extends ServerTestSupport {
    private static Browser browser;

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start(port());
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void blankPage() {
        browser.driver.get("about:blank");
    }

    @Test
    void topicsAreListedAndRefreshed() {
        String first = topic();
        String second = topic();
        schedule(first, "a", 3_600_000);
        schedule(first, "b", 3_600_000);
        schedule(second, "c", 0);

        browser.open("");

        WebElement row = browser.await(By.cssSelector("tr[data-topic='" + first + "']"));
        assertThat(cells(row)).startsWith(first, "2", "0", "0", "0");
        assertThat(cells(browser.await(By.cssSelector("tr[data-topic='" + second + "']"))))
                .startsWith(second, "0", "1", "0", "0");

        schedule(first, "d", 3_600_000);
        browser.awaitText(By.cssSelector("tr[data-topic='" + first + "'] td:nth-child(2)"), "3");
        // This server keeps every job in Redis, and the page says so.
        assertThat(browser.await(By.id("tier")).getText()).startsWith("No cold tier is configured");
    }

    @Test
    void theTopicsPageListsTheSchedulesWithTheirNextTick() {
        String t = topic();
        var put = api.send(
                "PUT",
                "/v1/schedules/nightly",
                json("topic", t, "cron", "0 3 * * *", "zone", "Europe/Berlin", "payload", 1),
                "application/json");
        assertThat(put.status()).as(put.raw().body()).isEqualTo(200);
        try {
            browser.open("");

            WebElement row = browser.await(By.cssSelector("tr[data-schedule='nightly']"));
            assertThat(cells(row)).startsWith("nightly", t, "0 3 * * *", "Europe/Berlin");
            assertThat(row.findElement(By.cssSelector("td:nth-child(5) span")).getAttribute("title"))
                    .isEqualTo(put.body().get("nextFireTimes").get(0).asText());
        } finally {
            api.delete("/v1/schedules/nightly");
        }
    }

    @Test
    void aDeadJobIsRequeuedWithItsButton() {
        String t = topic();
        kill(t, "doomed", "boom");
        kill(t, "other", "boom");

        browser.open("#/topics/" + t);
        browser.await(By.id("tab-dead")).click();
        browser.await(By.cssSelector("tr[data-id='doomed'] button.requeue")).click();
        browser.confirm();

        browser.awaitText(By.id("notice"), "Requeued 1 dead letter(s).");
        assertThat(api.get("/v1/topics/" + t + "/jobs/doomed")
                        .body()
                        .get("state")
                        .asText())
                .isEqualTo("READY");
        assertThat(api.get("/v1/topics/" + t + "/jobs/other")
                        .body()
                        .get("state")
                        .asText())
                .isEqualTo("DEAD");
    }

    @Test
    void cancellingTheConfirmationChangesNothing() {
        String t = topic();
        kill(t, "kept", "boom");

        browser.open("#/topics/" + t);
        browser.await(By.id("tab-dead")).click();
        browser.await(By.cssSelector("tr[data-id='kept'] button.delete")).click();
        browser.await(By.id("confirm-cancel")).click();

        browser.await(By.cssSelector("tr[data-id='kept']"));
        assertThat(api.get("/v1/topics/" + t + "/jobs/kept").body().get("state").asText())
                .isEqualTo("DEAD");
    }

    @Test
    void selectedDeadLettersAreDeletedAndTheOthersKept() {
        String t = topic();
        kill(t, "d1", "boom");
        kill(t, "d2", "boom");
        kill(t, "d3", "boom");

        browser.open("#/topics/" + t);
        browser.await(By.id("tab-dead")).click();
        browser.await(By.cssSelector("tr[data-id='d1'] input.pick")).click();
        browser.await(By.cssSelector("tr[data-id='d3'] input.pick")).click();
        browser.await(By.id("delete-selected")).click();
        browser.confirm();

        browser.awaitText(By.id("notice"), "Deleted 2 dead letter(s).");
        assertThat(api.get("/v1/topics/" + t + "/jobs/d1").status()).isEqualTo(404);
        assertThat(api.get("/v1/topics/" + t + "/jobs/d3").status()).isEqualTo(404);
        assertThat(api.get("/v1/topics/" + t + "/jobs/d2").body().get("state").asText())
                .isEqualTo("DEAD");
    }

    @Test
    void jobListsArePagedWithTheCursorAndSearchedById() {
        String t = topic();
        for (int i = 0; i < 60; i++) {
            schedule(t, String.format("job-%02d", i), 3_600_000 + i * 1000L);
        }

        browser.open("#/topics/" + t);
        browser.await(By.id("tab-scheduled")).click();
        browser.await(By.cssSelector("tr[data-id='job-49']"));
        assertThat(browser.driver.findElements(By.cssSelector("tr[data-id]"))).hasSize(50);
        browser.await(By.id("page-next")).click();
        browser.await(By.cssSelector("tr[data-id='job-59']"));
        assertThat(browser.driver.findElements(By.cssSelector("tr[data-id]"))).hasSize(10);
        assertThat(browser.await(By.id("page-next")).isEnabled()).isFalse();
        browser.await(By.id("page-previous")).click();
        browser.await(By.cssSelector("tr[data-id='job-00']"));

        browser.await(By.id("job-search")).sendKeys("no-such-job");
        browser.await(By.cssSelector("#job-search + button")).click();
        browser.awaitText(By.id("notice"), "No job \"no-such-job\"");
        browser.await(By.id("job-search")).clear();
        browser.await(By.id("job-search")).sendKeys("job-42");
        browser.await(By.cssSelector("#job-search + button")).click();
        browser.awaitText(By.id("payload"), "\"n\": \"job-42\"");
    }

    @Test
    void aTopicIsPausedAndResumedWithItsButtons() {
        String t = topic();
        schedule(t, "j", 0);
        Hourglass hourglass = context.getBean(Hourglass.class);

        browser.open("#/topics/" + t);
        browser.await(By.id("pause")).click();
        browser.confirm();
        browser.await(By.id("resume"));
        assertThat(hourglass.inspector().topic(t).paused()).isTrue();
        browser.awaitText(By.id("topic-state"), "paused");

        browser.await(By.id("resume")).click();
        browser.confirm();
        browser.await(By.id("pause"));
        assertThat(hourglass.inspector().topic(t).paused()).isFalse();
    }

    @Test
    void theTopicsFlowControlIsShownAndChangedOnlyAfterAConfirmation() {
        String t = topic();
        schedule(t, "j", 3_600_000);
        var put = api.send(
                "PUT",
                "/v1/topics/" + t + "/config",
                json("ratePerSecond", 50, "burst", 100, "maxConcurrency", 5),
                "application/json");
        assertThat(put.status()).as(put.raw().body()).isEqualTo(200);

        browser.open("#/topics/" + t);
        browser.awaitText(By.id("flow-summary"), "Rate limit: 50/s (burst 100) · concurrency cap: 5 at once");
        assertThat(browser.await(By.id("flow-cap")).getAttribute("value")).isEqualTo("5");

        type("flow-rate", "20");
        type("flow-burst", "40");
        type("flow-cap", "0");
        browser.await(By.id("flow-save")).click();
        browser.await(By.id("confirm-cancel")).click();
        assertThat(api.get("/v1/topics/" + t + "/config")
                        .body()
                        .get("maxConcurrency")
                        .asInt())
                .as("cancelled: unchanged")
                .isEqualTo(5);

        browser.await(By.id("flow-save")).click();
        browser.confirm();
        browser.awaitText(By.id("notice"), "saved: 20 per second (burst 40), no concurrency cap.");
        JsonNode stored = api.get("/v1/topics/" + t + "/config").body();
        assertThat(stored.get("ratePerSecond").asDouble()).isEqualTo(20.0);
        assertThat(stored.get("burst").asInt()).isEqualTo(40);
        assertThat(stored.get("maxConcurrency").asInt()).isZero();
        browser.awaitText(By.id("flow-summary"), "Rate limit: 20/s (burst 40) · concurrency cap: none");
    }

    private static void type(String id, String value) {
        WebElement input = browser.await(By.id(id));
        input.clear();
        input.sendKeys(value);
    }

    @Test
    void theChartDrawsTheHistory() {
        String t = topic();
        for (int i = 0; i < 3; i++) {
            schedule(t, "ok-" + i, 0);
        }
        for (JsonNode delivery : reserve(t, 3)) {
            assertThat(api.post(
                                    "/v1/topics/" + t + "/jobs/"
                                            + delivery.get("id").asText() + "/ack",
                                    json("receipt", delivery.get("receipt").asText()))
                            .status())
                    .isEqualTo(204);
        }
        kill(t, "failed", "boom");

        browser.open("#/topics/" + t);

        browser.await(By.cssSelector("#chart .uplot canvas"));
        assertThat(browser.script("return hourglassDashboard.chart.data[1].reduce((a, b) => a + b, 0)"))
                .isEqualTo(3L);
        assertThat(browser.script("return hourglassDashboard.chart.data[2].reduce((a, b) => a + b, 0)"))
                .isEqualTo(1L);
        assertThat(browser.script("return hourglassDashboard.chart.data[0].length"))
                .isEqualTo(1440L);
    }

    @Test
    void theJobPageShowsThePayloadAndTimes() {
        String t = topic();
        api.post(
                "/v1/topics/" + t + "/jobs",
                "{\"id\": \"invoice-7\", \"delayMs\": 180000, \"payload\": {\"customer\": 42, \"lines\": [1, 2]}}");

        browser.open("#/topics/" + t + "/jobs/invoice-7");

        assertThat(browser.await(By.id("payload")).getText())
                .isEqualTo("{\n  \"customer\": 42,\n  \"lines\": [\n    1,\n    2\n  ]\n}");
        assertThat(browser.await(By.cssSelector("dl.fields")).getText()).containsPattern("\\(in [23] min\\)");
        browser.await(By.cssSelector("button.run")).click();
        browser.confirm();
        browser.awaitText(By.id("notice"), "Job \"invoice-7\" is ready now.");
        assertThat(api.get("/v1/topics/" + t + "/jobs/invoice-7")
                        .body()
                        .get("state")
                        .asText())
                .isEqualTo("READY");
    }

    @Test
    void valuesFromJobsAreShownAsTextNeverAsHtml() {
        String t = topic();
        String attack = "<img src=x onerror=\"window.pwned=1\">";
        api.post("/v1/topics/" + t + "/jobs", json("id", "x", "payload", attack, "maxAttempts", 1));
        JsonNode delivery = reserve(t, 1).get(0);
        api.post(
                "/v1/topics/" + t + "/jobs/x/nack",
                json("receipt", delivery.get("receipt").asText(), "error", attack));

        browser.open("#/topics/" + t);
        browser.await(By.id("tab-dead")).click();
        browser.await(By.cssSelector("tr[data-id='x']"));
        browser.open("#/topics/" + t + "/jobs/x");

        assertThat(browser.await(By.id("payload")).getText()).isEqualTo(attack);
        assertThat(browser.await(By.id("last-error")).getText()).isEqualTo(attack);
        assertThat(browser.script("return document.querySelectorAll('img').length"))
                .isEqualTo(0L);
        assertThat(browser.script("return window.pwned === undefined")).isEqualTo(true);
    }

    @Test
    void screenshotsOfEachPage() throws Exception {
        String orders = "orders";
        String emails = "emails";
        kill(orders, "order-1999", "HTTP 503 from payments: upstream unavailable");
        for (int i = 0; i < 6; i++) {
            schedule(orders, "order-" + (1000 + i), 0);
        }
        for (JsonNode delivery : reserve(orders, 4)) {
            api.post(
                    "/v1/topics/" + orders + "/jobs/" + delivery.get("id").asText() + "/ack",
                    json("receipt", delivery.get("receipt").asText()));
        }
        for (int i = 0; i < 8; i++) {
            api.post(
                    "/v1/topics/" + orders + "/jobs",
                    json(
                            "id",
                            "order-" + (2000 + i),
                            "delayMs",
                            60_000L * (i + 1) * 7,
                            "payload",
                            Map.of("orderId", 2000 + i, "action", "send-reminder")));
        }
        for (int i = 0; i < 3; i++) {
            schedule(emails, "welcome-" + i, 3_600_000);
        }
        kill(emails, "welcome-bounced", "SMTP 550: mailbox unavailable");
        context.getBean(Hourglass.class).inspector().pause(emails);
        api.send(
                "PUT",
                "/v1/schedules/weekly-digest",
                json("topic", emails, "cron", "0 8 * * MON", "zone", "Europe/Berlin", "payload", 1),
                "application/json");
        Path dir = Path.of("target", "dashboard-screenshots");

        browser.open("");
        browser.await(By.cssSelector("tr[data-topic='" + orders + "']"));
        browser.await(By.cssSelector("tr[data-schedule='weekly-digest']"));
        browser.screenshot(dir.resolve("dashboard-topics.png"));

        browser.open("#/topics/" + orders);
        browser.await(By.cssSelector("#chart .uplot canvas"));
        browser.await(By.cssSelector("tr[data-id]"));
        browser.await(By.id("tab-scheduled")).click();
        browser.await(By.cssSelector("tr[data-id='order-2000']"));
        browser.screenshot(dir.resolve("dashboard-topic.png"));

        browser.open("#/topics/" + orders + "/jobs/order-1999");
        browser.await(By.id("payload"));
        browser.screenshot(dir.resolve("dashboard-job.png"));

        assertThat(dir.resolve("dashboard-job.png")).isNotEmptyFile();
    }

    private static List<String> cells(WebElement row) {
        return row.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
    }

    private static void schedule(String topic, String id, long delayMs) {
        var response = api.post(
                "/v1/topics/" + topic + "/jobs", json("id", id, "delayMs", delayMs, "payload", Map.of("n", id)));
        assertThat(response.status()).isEqualTo(201);
    }

    private static List<JsonNode> reserve(String topic, int count) {
        List<JsonNode> deliveries = new ArrayList<>();
        while (deliveries.size() < count) {
            var response = api.post(
                    "/v1/topics/" + topic + "/reservations", json("max", count - deliveries.size(), "waitMs", 2000));
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).isNotEmpty();
            response.body().forEach(deliveries::add);
        }
        return deliveries;
    }

    /** Makes a dead letter: one attempt allowed, reserved and nacked with the error. */
    private static void kill(String topic, String id, String error) {
        api.post("/v1/topics/" + topic + "/jobs", json("id", id, "payload", Map.of("n", id), "maxAttempts", 1));
        JsonNode delivery = reserve(topic, 1).get(0);
        assertThat(delivery.get("id").asText()).isEqualTo(id);
        assertThat(api.post(
                                "/v1/topics/" + topic + "/jobs/" + id + "/nack",
                                json("receipt", delivery.get("receipt").asText(), "error", error))
                        .status())
                .isEqualTo(204);
        assertThat(api.get("/v1/topics/" + topic + "/jobs/" + id)
                        .body()
                        .get("state")
                        .asText())
                .isEqualTo("DEAD");
    }
}
