package io.hourglass.server.api;

import io.hourglass.server.auth.PublicEndpoint;
import io.hourglass.spring.boot3.HourglassHealthIndicator;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /health}: 200 when Redis answers, 503 when it does not, as the starter's {@code hourglass} health
 * indicator finds. Open without a token.
 */
@RestController
@Tag(name = "operations", description = "Health, probes and metrics")
public class HealthController {
    private final HourglassHealthIndicator indicator;

    /** @param indicator the starter's health indicator of the server's Hourglass */
    public HealthController(HourglassHealthIndicator indicator) {
        this.indicator = indicator;
    }

    /** @return {@code {"status":"UP","redis":"UP"}}, or 503 with {@code DOWN} and the error */
    @GetMapping("/health")
    @PublicEndpoint
    @Operation(summary = "Whether Redis answers; open without a token")
    @ApiResponse(responseCode = "200", description = "{\"status\": \"UP\", \"redis\": \"UP\"}")
    @ApiResponse(
            responseCode = "503",
            description = "{\"status\": \"DOWN\", \"redis\": \"UP\" or \"DOWN\", \"error\": ...}, with Retry-After: 1",
            useReturnTypeSchema = true)
    public ResponseEntity<Map<String, String>> health() {
        Health health = indicator.health();
        if (Status.UP.equals(health.getStatus())) {
            return ResponseEntity.ok(Map.of("status", "UP", "redis", "UP"));
        }
        Object error = health.getDetails().get("error");
        Map<String, String> body = new LinkedHashMap<>();
        body.put("status", "DOWN");
        body.put("redis", error == null ? "UP" : "DOWN");
        body.put("error", error == null ? String.valueOf(health.getDetails().get("stalled")) : error.toString());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", "1")
                .body(body);
    }
}
