package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The dashboard with completed jobs kept and a dead-letter limit of one, in headless Chromium: a completed job's page
 * shows its completion time and result and offers no action, the topic page counts and lists completed jobs, and a
 * topic whose limit deleted dead letters says how many.
 */
@ServerSettings({
    "--hourglass.insecure=true",
    "--hourglass.completed-retention=1h",
    "--hourglass.dead-letter-max-count=1"
})
class DashboardRetentionBrowserTests extends ServerTestSupport {
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

    private static JsonNode reserveOne(String topic, String id) {
        api.post("/v1/topics/" + topic + "/jobs", json("id", id, "payload", 1, "maxAttempts", 1));
        JsonNode delivery = api.post("/v1/topics/" + topic + "/reservations", json("max", 1, "waitMs", 2000))
                .body()
                .get(0);
        assertThat(delivery.get("id").asText()).isEqualTo(id);
        return delivery;
    }

    @Test
    void aCompletedJobShowsItsResultAndNoAction() {
        String t = topic();
        JsonNode delivery = reserveOne(t, "done");
        assertThat(api.post(
                                "/v1/topics/" + t + "/jobs/done/ack",
                                "{\"receipt\":\"" + delivery.get("receipt").asText()
                                        + "\",\"result\":{\"invoice\":\"<b>INV-7</b>\"}}")
                        .status())
                .isEqualTo(204);

        browser.open("#/topics/" + t + "/jobs/done");

        browser.awaitText(By.id("result"), "\"invoice\": \"<b>INV-7</b>\"");
        assertThat(browser.await(By.cssSelector("main h1")).getText()).contains("COMPLETED");
        assertThat(browser.driver.findElements(By.cssSelector("main button"))).isEmpty();
        assertThat(browser.driver.findElements(By.cssSelector("#result b"))).isEmpty();

        JsonNode listed = api.get("/v1/topics/" + t + "/jobs?state=completed").body();
        assertThat(listed.get("jobs").get(0).get("id").asText()).isEqualTo("done");
        assertThat(listed.get("jobs").get(0).get("state").asText()).isEqualTo("COMPLETED");
        assertThat(listed.get("jobs").get(0).get("completedAt").asText())
                .isEqualTo(api.get("/v1/topics/" + t + "/jobs/done")
                        .body()
                        .get("completedAt")
                        .asText());
        assertThat(api.get("/v1/topics/" + t).body().get("completed").asLong()).isEqualTo(1);
        assertThat(api.delete("/v1/topics/" + t + "/jobs?state=completed").status())
                .as("retained jobs are listed, not purged")
                .isEqualTo(400);

        browser.open("#/topics/" + t);
        assertThat(browser.await(By.xpath("//div[span[text()='completed']]/b")).getText())
                .isEqualTo("1");
        browser.await(By.id("tab-completed")).click();
        browser.await(By.cssSelector("tr[data-id='done'] a"));
        assertThat(browser.driver.findElements(By.cssSelector("tr[data-id='done'] button")))
                .isEmpty();
    }

    @Test
    void aTopicWhoseLimitDeletedDeadLettersSaysHowMany() {
        String t = topic();
        for (String id : new String[] {"d1", "d2", "d3"}) {
            JsonNode delivery = reserveOne(t, id);
            assertThat(api.post(
                                    "/v1/topics/" + t + "/jobs/" + id + "/nack",
                                    json("receipt", delivery.get("receipt").asText(), "error", "boom"))
                            .status())
                    .isEqualTo(204);
        }

        browser.open("#/topics/" + t);

        browser.awaitText(By.cssSelector("main .counts"), "dead letters trimmed");
        assertThat(browser.await(By.xpath("//div[span[text()='dead letters trimmed']]/b"))
                        .getText())
                .isEqualTo("2");
        assertThat(api.get("/v1/topics/" + t).body().get("deadLettersTrimmed").asLong())
                .isEqualTo(2);
    }
}
