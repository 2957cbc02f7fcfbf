package io.hourglass.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) for the dashboard's browser tests,
 * with a 1280x800 viewport. Selenium downloads nothing: the driver and the browser are the installed ones. Where they
 * are missing, {@link #start()} skips the test with a message naming the packages.
 */
final class Browser implements AutoCloseable {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration PATIENCE = Duration.ofSeconds(15);

    final ChromeDriver driver;
    private final String base;

    private Browser(ChromeDriver driver, String base) {
        this.driver = driver;
        this.base = base;
    }

    /** @param port the server's port */
    static Browser start(int port) {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "headless Chromium is missing: install Debian's chromium and chromium-driver packages"
                        + " (apt-get install -y chromium chromium-driver)");
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", 1280, "height", 800, "deviceScaleFactor", 1, "mobile", false));
        return new Browser(driver, "http://localhost:" + port);
    }

    /** Opens the dashboard at a route ({@code ""}, {@code "#/topics/t"}) in a fresh page load. */
    void open(String route) {
        driver.get(base + "/" + route);
    }

    /** @return the element once it is visible */
    WebElement await(By by) {
        return new WebDriverWait(driver, PATIENCE).until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    /** Waits until the element's text contains the given text. */
    void awaitText(By by, String text) {
        new WebDriverWait(driver, PATIENCE).until(ExpectedConditions.textToBePresentInElementLocated(by, text));
    }

    /** Clicks the confirmation dialog's confirm button. */
    void confirm() {
        await(By.id("confirm-ok")).click();
    }

    /** @return the result of a script run in the page */
    Object script(String script) {
        return driver.executeScript(script);
    }

    /** Saves what the viewport shows as a PNG. */
    void screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        driver.quit();
    }
}
