package io.hourglass.server.auth;

import io.hourglass.server.error.JsonErrorWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates every request but {@link PublicPaths} ({@code GET /health}, the probes, the API description, the
 * dashboard's static files): it must carry {@code Authorization: Bearer <token>} with a configured token, else the
 * answer is 401 with {@code WWW-Authenticate: Bearer} before anything else is read. The token found is kept in the
 * request attribute {@link ApiToken#REQUEST_ATTRIBUTE} for {@link RightsInterceptor}, which checks its rights and
 * topics. When authentication is off every request gets {@link ApiToken#UNRESTRICTED}.
 */
public final class BearerTokenFilter extends OncePerRequestFilter {
    /** The one path open without a token (for GET and HEAD). */
    public static final String PUBLIC_PATH = "/health";

    private static final String BEARER = "bearer ";

    private final ApiAccess access;

    /** @param access the configured tokens */
    public BearerTokenFilter(ApiAccess access) {
        this.access = access;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (access.enabled() && isPublic(request)) {
            chain.doFilter(request, response);
            return;
        }
        String header = request.getHeader("Authorization");
        String presented = bearerToken(header);
        Optional<ApiToken> token = access.authenticate(presented);
        if (token.isEmpty()) {
            refuse(
                    response,
                    header == null
                            ? "Authorization: a bearer token is required (Authorization: Bearer <token>)"
                            : presented == null
                                    ? "Authorization: must be \"Bearer <token>\""
                                    : "Authorization: unknown token",
                    header != null);
            return;
        }
        request.setAttribute(ApiToken.REQUEST_ATTRIBUTE, token.get());
        chain.doFilter(request, response);
    }

    private static boolean isPublic(HttpServletRequest request) {
        return PublicPaths.isPublic(request);
    }

    /** @return the token of an {@code Authorization: Bearer <token>} header, or null when there is none */
    private static String bearerToken(String header) {
        if (header == null
                || header.length() <= BEARER.length()
                || !header.substring(0, BEARER.length())
                        .toLowerCase(Locale.ROOT)
                        .equals(BEARER)) {
            return null;
        }
        String token = header.substring(BEARER.length()).trim();
        return token.isEmpty() ? null : token;
    }

    private static void refuse(HttpServletResponse response, String message, boolean tokenGiven) throws IOException {
        response.setHeader(
                "WWW-Authenticate",
                tokenGiven ? "Bearer realm=\"hourglass\", error=\"invalid_token\"" : "Bearer realm=\"hourglass\"");
        JsonErrorWriter.send(response, HttpServletResponse.SC_UNAUTHORIZED, message);
    }
}
