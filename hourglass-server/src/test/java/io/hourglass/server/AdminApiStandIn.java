package io.hourglass.server;

import io.hourglass.Hourglass;
import io.hourglass.Inspector;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.RunNowOutcome;
import io.hourglass.TopicOverview;
import io.hourglass.server.auth.ApiToken;
import io.hourglass.server.auth.RightsInterceptor;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * TEST-ONLY stand-in for the admin HTTP API (topic overviews, history, job listings, pause/resume, run now, bulk dead
 * letters, purge) that the dashboard uses, in the agreed shapes, over {@link Hourglass#inspector()}. It exists only
 * until the server's own controllers serve these endpoints; then delete this file and the
 * {@link #PROFILE} argument in {@code DashboardBrowserTests}.
 *
 * <p>Two guards keep it out of the way: it is registered only under the profile {@value #PROFILE}, which only the
 * browser tests activate, and only while no controller of {@code io.hourglass.server.api} serves
 * {@code /{topic}/history} ({@link RealApiAbsent}), so that after the merge the tests run against the real endpoints
 * even before this file is deleted. Its own handler mapping runs ahead of the controllers' (it replaces today's
 * {@code GET /v1/topics} and {@code GET /v1/topics/{topic}}, whose answers lack the paused flag and latency) and
 * passes every request it has no endpoint for on to them.
 */
@ResponseBody
@RequestMapping("/v1/topics")
class AdminApiStandIn {
    /** The Spring profile that registers the stand-in. */
    static final String PROFILE = "admin-api-stand-in";

    private final Inspector inspector;

    AdminApiStandIn(Inspector inspector) {
        this.inspector = inspector;
    }

    /** Registers the stand-in and its handler mapping. */
    @Configuration(proxyBeanMethods = false)
    @Profile(PROFILE)
    @Conditional(RealApiAbsent.class)
    static class Registration {
        @Bean
        AdminApiStandIn adminApiStandIn(Hourglass hourglass) {
            return new AdminApiStandIn(hourglass.inspector());
        }

        @Bean
        RequestMappingHandlerMapping adminApiStandInMapping() {
            RequestMappingHandlerMapping mapping = new RequestMappingHandlerMapping() {
                @Override
                protected boolean isHandler(Class<?> beanType) {
                    return beanType == AdminApiStandIn.class;
                }

                @Override
                protected HandlerMethod handleNoMatch(
                        Set<RequestMappingInfo> infos, String lookupPath, HttpServletRequest request) {
                    return null; // a path it serves with another method: the controllers decide
                }
            };
            mapping.setOrder(-1);
            mapping.setInterceptors(new RightsInterceptor());
            return mapping;
        }
    }

    /** Matches while no controller of the server has the history endpoint, i.e. before the real API is merged. */
    static final class RealApiAbsent implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            var scanner = new ClassPathScanningCandidateComponentProvider(false);
            scanner.addIncludeFilter(new AnnotationTypeFilter(Controller.class));
            for (var candidate : scanner.findCandidateComponents("io.hourglass.server.api")) {
                try {
                    Class<?> type = Class.forName(candidate.getBeanClassName());
                    for (var method : type.getDeclaredMethods()) {
                        // Merged: @GetMapping and any other spelling of a mapping.
                        RequestMapping mapping =
                                AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
                        if (mapping != null && Arrays.stream(mapping.path()).anyMatch(p -> p.endsWith("/history"))) {
                            return false;
                        }
                    }
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            }
            return true;
        }
    }

    @GetMapping
    List<Map<String, Object>> topics(@RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller) {
        return inspector.topics().stream()
                .filter(t -> caller.covers(t.topic()))
                .map(AdminApiStandIn::topicView)
                .toList();
    }

    @GetMapping("/{topic}")
    Map<String, Object> topic(@PathVariable String topic) {
        return topicView(inspector.topic(topic));
    }

    @GetMapping("/{topic}/history")
    Map<String, Object> history(@PathVariable String topic) {
        return Map.of(
                "topic",
                topic,
                "minutes",
                inspector.history(topic).stream()
                        .map(m -> Map.of(
                                "minute", m.minute().toString(), "processed", m.processed(), "failed", m.failed()))
                        .toList());
    }

    @GetMapping("/{topic}/jobs")
    Map<String, Object> jobs(
            @PathVariable String topic,
            @RequestParam String state,
            @RequestParam(defaultValue = "50") int limit,
            @RequestParam(required = false) String cursor) {
        if (limit < 1 || limit > Inspector.MAX_PAGE) {
            throw new IllegalArgumentException("limit: must be 1 to " + Inspector.MAX_PAGE + ", got " + limit);
        }
        var page = inspector.jobs(topic, state(state), cursor, limit);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("jobs", page.jobs().stream().map(AdminApiStandIn::summary).toList());
        answer.put("nextCursor", page.nextCursor());
        return answer;
    }

    @PostMapping("/{topic}/pause")
    Map<String, Object> pause(@PathVariable String topic) {
        inspector.pause(topic);
        return topicView(inspector.topic(topic));
    }

    @PostMapping("/{topic}/resume")
    Map<String, Object> resume(@PathVariable String topic) {
        inspector.resume(topic);
        return topicView(inspector.topic(topic));
    }

    @PostMapping("/{topic}/jobs/{id}/run")
    ResponseEntity<Map<String, Object>> run(@PathVariable String topic, @PathVariable String id) {
        RunNowOutcome outcome = inspector.runNow(topic, id);
        return switch (outcome) {
            case MADE_READY, ALREADY_READY -> ResponseEntity.ok(Map.of("id", id, "outcome", outcome.name()));
            case NOT_FOUND -> ResponseEntity.status(404).body(Map.of("error", "id: no job '" + id + "'"));
            case ACTIVE, DEAD ->
                ResponseEntity.status(409).body(Map.of("error", "state: job '" + id + "' is " + outcome.name()));
        };
    }

    @PostMapping("/{topic}/dead/requeue")
    Map<String, Object> requeue(@PathVariable String topic, @RequestBody Map<String, List<String>> body) {
        List<String> ids = body.get("ids");
        return Map.of("requeued", ids == null ? inspector.requeueAllDead(topic) : inspector.requeueDead(topic, ids));
    }

    @DeleteMapping("/{topic}/dead")
    Map<String, Object> deleteDead(
            @PathVariable String topic, @RequestParam(name = "id", required = false) List<String> ids) {
        return Map.of(
                "deleted",
                ids == null || ids.isEmpty() ? inspector.deleteAllDead(topic) : inspector.deleteDead(topic, ids));
    }

    @DeleteMapping("/{topic}/jobs")
    Map<String, Object> purge(@PathVariable String topic, @RequestParam String state) {
        return Map.of("purged", inspector.purge(topic, state(state)));
    }

    private static JobState state(String state) {
        try {
            return JobState.valueOf(state.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("state: must be scheduled, ready, active or dead, got '" + state + "'");
        }
    }

    private static Map<String, Object> topicView(TopicOverview t) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("topic", t.topic());
        view.put("scheduled", t.scheduled());
        view.put("ready", t.ready());
        view.put("active", t.active());
        view.put("dead", t.dead());
        view.put("paused", t.paused());
        view.put("latencyMs", t.latency().toMillis());
        view.put("nextDueAt", time(t.nextDueAt()));
        return view;
    }

    private static Map<String, Object> summary(JobSummary j) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", j.id());
        view.put("state", j.state().name());
        view.put("dueAt", time(j.dueAt()));
        view.put("attempt", j.attempt());
        view.put("maxAttempts", j.maxAttempts());
        view.put("lastError", j.lastError());
        view.put("leaseUntil", time(j.leaseUntil()));
        view.put("diedAt", time(j.diedAt()));
        view.put("payloadBytes", j.payloadBytes());
        boolean text = j.payloadPreviewText() != null;
        view.put(
                "payloadPreview",
                text ? j.payloadPreviewText() : Base64.getEncoder().encodeToString(j.payloadPreview()));
        view.put("payloadPreviewEncoding", text ? "utf-8" : "base64");
        return view;
    }

    private static String time(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
