package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import io.hourglass.server.auth.PublicEndpoint;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /health}: 200 when Redis answers, 503 when it does not. Open without a token. */
@RestController
public class HealthController {
  /** A topic name only read (never written) to prove Redis answers a script call. */
  private static final String PROBE_TOPIC = "hourglass-health-probe";

  private final Hourglass hourglass;

  /** @param hourglass the instance whose Redis to check */
  public HealthController(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  /** @return {@code {"status":"UP","redis":"UP"}}, or 503 with {@code DOWN} and the error */
  @GetMapping("/health")
  @PublicEndpoint
  public ResponseEntity<Map<String, String>> health() {
    try {
      hourglass.stats(PROBE_TOPIC);
      return ResponseEntity.ok(Map.of("status", "UP", "redis", "UP"));
    } catch (HourglassException | IllegalStateException e) {
      Map<String, String> body = new LinkedHashMap<>();
      body.put("status", "DOWN");
      body.put("redis", "DOWN");
      body.put("error", e.getMessage());
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "1").body(body);
    }
  }
}
