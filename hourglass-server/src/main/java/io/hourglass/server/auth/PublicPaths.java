package io.hourglass.server.auth;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Set;

/**
 * The requests answered without a token, even when tokens are configured: {@code GET} and {@code HEAD} of the health
 * check ({@code /health}), Kubernetes' probes ({@code /livez}, {@code /readyz}), which carry no credentials, and the
 * API's description ({@code /v3/api-docs}, Swagger UI under {@code /swagger-ui}), which a browser loads before the user
 * can enter a token and which holds no data, and the web dashboard's static files ({@code /}, {@code /dashboard/}, the
 * libraries under {@code /webjars/}), which hold no data either: the dashboard reads everything through the API with
 * the user's token. Everything else needs a token. Stateless.
 */
public final class PublicPaths {
    /** Exact paths. */
    private static final Set<String> PATHS =
            Set.of("/", "/health", "/livez", "/readyz", "/v3/api-docs", "/swagger-ui.html");
    /** Path prefixes (Swagger UI's files and configuration, the dashboard's files and libraries). */
    private static final List<String> PREFIXES = List.of("/v3/api-docs/", "/swagger-ui/", "/dashboard/", "/webjars/");

    private PublicPaths() {}

    /**
     * @param request a request
     * @return whether it is a {@code GET} or {@code HEAD} of a public path. The path must be sent as Tomcat maps it (no
     *     {@code ..} or {@code .} segment, no {@code %} escape, no {@code ;} parameter, no double slash), so that no
     *     spelling of an API path can pass for a public one
     */
    public static boolean isPublic(HttpServletRequest request) {
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return false;
        }
        String path = request.getRequestURI();
        String mapped = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        return path.equals(mapped)
                && !path.contains("%")
                && !path.contains(";")
                && (PATHS.contains(path) || PREFIXES.stream().anyMatch(path::startsWith));
    }
}
