package io.hourglass.server.api;

import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /metrics}: every meter of the server in Prometheus's text format (version 0.0.4): the starter's
 * {@code hourglass_*} meters, JVM and process metrics. Needs a token with the right {@code metrics} (or {@code admin})
 * when tokens are configured.
 */
@RestController
@Tag(name = "operations", description = "Health, probes and metrics")
public class MetricsController {
    /** The content type of {@link PrometheusMeterRegistry#scrape()}: Prometheus's text exposition format 0.0.4. */
    private static final MediaType PROMETHEUS_TEXT =
            MediaType.parseMediaType("text/plain; version=0.0.4; charset=utf-8");

    private final PrometheusMeterRegistry registry;

    /** @param registry the Prometheus registry that Spring Boot adds to the server's meter registries */
    public MetricsController(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    /** @return 200 with the scrape, {@code text/plain; version=0.0.4; charset=utf-8} */
    @GetMapping("/metrics")
    @RequiresRight(Right.METRICS)
    @Operation(
            summary = "Prometheus scrape",
            description =
                    "Every meter in Prometheus's text format 0.0.4: hourglass_* meters, JVM and process" + " metrics.")
    @ApiResponse(
            responseCode = "200",
            description = "the scrape",
            content = @Content(mediaType = "text/plain", schema = @Schema(type = "string")))
    public ResponseEntity<String> metrics() {
        return ResponseEntity.ok().contentType(PROMETHEUS_TEXT).body(registry.scrape());
    }
}
