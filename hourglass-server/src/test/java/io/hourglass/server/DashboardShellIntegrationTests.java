package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's static shell with tokens configured: the page, its own files and the uPlot WebJar (by a path without
 * its version) are open without a token and hold no data, while the API behind them still needs one, other methods on
 * the shell's paths need one, and an unknown file is still a JSON 404.
 */
@ServerSettings("--hourglass.tokens=" + DashboardSignInBrowserTests.TOKENS)
class DashboardShellIntegrationTests extends ServerTestSupport {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theShellIsPublic() throws Exception {
        var page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body()).contains("<script src=\"/dashboard/dashboard.js\"");

        var script = get("/dashboard/dashboard.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).contains("javascript"));
        assertThat(get("/dashboard/dashboard.css").statusCode()).isEqualTo(200);

        var uplot = get("/webjars/uplot/dist/uPlot.iife.min.js");
        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.body()).contains("uPlot");
        assertThat(get("/webjars/uplot/dist/uPlot.min.css").statusCode()).isEqualTo(200);
    }

    @Test
    void theApiBehindItStillNeedsAToken() throws Exception {
        assertThat(get("/v1/topics").statusCode()).isEqualTo(401);
        var post = HTTP.send(
                HttpRequest.newBuilder(uri("/"))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(401);
    }

    @Test
    void anUnknownFileIsAJson404() throws Exception {
        var missing = get("/dashboard/missing.js");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).startsWith("{\"error\"");
        assertThat(get("/webjars/uplot/missing.js").statusCode()).isEqualTo(404);
        assertThat(get("/index.html").statusCode()).isEqualTo(401);
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://localhost:" + port() + path);
    }
}
