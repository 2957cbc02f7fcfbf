package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The dashboard in a real headless Chromium against a server with tokens: the sign-in form comes first, a wrong token
 * and a token without the admin right are refused with the server's error, and an admin token is kept in
 * {@code sessionStorage} and sent with every call.
 */
@ServerSettings({"--hourglass.tokens=" + DashboardSignInBrowserTests.TOKENS})
class DashboardSignInBrowserTests extends ServerTestSupport {
    static final String ADMIN = "admin-0123456789abcdef";
    static final String PRODUCER = "producer-0123456789abcdef";
    static final String TOKENS = "[{\"token\": \"" + ADMIN + "\", \"topics\": [\"*\"], \"rights\": [\"admin\"]},"
            + "{\"token\": \"" + PRODUCER + "\", \"topics\": [\"*\"], \"rights\": [\"produce\"]}]";

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
    void signedOut() {
        browser.open("");
        browser.script("sessionStorage.clear()");
    }

    @Test
    void aWrongTokenIsRefusedAndTheRightOneSignsIn() {
        String t = topic();
        assertThat(api.withToken(ADMIN)
                        .post("/v1/topics/" + t + "/jobs", json("id", "j", "payload", 1))
                        .status())
                .isEqualTo(201);

        browser.open("");
        signIn("not-a-token-0123456789");
        browser.awaitText(By.id("sign-in-error"), "Authorization: unknown token");
        assertThat(browser.script("return sessionStorage.getItem('hourglass.token')"))
                .isNull();

        signIn(ADMIN);
        browser.await(By.cssSelector("tr[data-topic='" + t + "']"));
        assertThat(browser.script("return sessionStorage.getItem('hourglass.token')"))
                .isEqualTo(ADMIN);

        browser.await(By.id("sign-out")).click();
        browser.await(By.id("sign-in"));
        assertThat(browser.script("return sessionStorage.getItem('hourglass.token')"))
                .isNull();
    }

    @Test
    void aTokenThatNoHeaderCanCarryIsRefusedBeforeAnyCall() {
        browser.open("");
        signIn("tøken with spaces");
        browser.awaitText(By.id("sign-in-error"), "token: must be visible ASCII characters without spaces");
        assertThat(browser.script("return sessionStorage.getItem('hourglass.token')"))
                .isNull();
    }

    @Test
    void aTokenWithoutTheAdminRightIsRefused() {
        browser.open("");
        signIn(PRODUCER);
        browser.awaitText(By.id("sign-in-error"), "no admin right");
    }

    private static void signIn(String token) {
        var input = browser.await(By.id("token"));
        input.clear();
        input.sendKeys(token);
        browser.await(By.cssSelector("#sign-in button[type=submit]")).click();
    }
}
