package io.hourglass.server.auth;

import io.hourglass.server.error.JsonErrorWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request that changes something when a browser sent it for another site's page (cross-site request forgery):
 * without tokens, as in development, any web page the developer opens could otherwise pause a topic or requeue dead
 * letters on the server at {@code 127.0.0.1}. A browser says where a request comes from in {@code Sec-Fetch-Site}
 * (every current browser) or {@code Origin}; a request with neither, as curl, SDKs and other programs send, passes, so
 * this costs API clients nothing. Reads pass too: a browser does not let another site's page read the answer, since the
 * server sends no CORS headers. The dashboard, served by the server itself, is same-origin. Thread-safe.
 */
final class CrossSiteRequestFilter extends OncePerRequestFilter {
    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!READS.contains(request.getMethod()) && isCrossSite(request)) {
            JsonErrorWriter.send(
                    response,
                    HttpServletResponse.SC_FORBIDDEN,
                    "cross-site request refused: a page of another site may not change anything here (Origin "
                            + "or Sec-Fetch-Site names another site)");
            return;
        }
        chain.doFilter(request, response);
    }

    static boolean isCrossSite(HttpServletRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            // "same-site" is refused too: another port of the same host is another application.
            return !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none");
        }
        String origin = request.getHeader("Origin");
        return origin != null && !sameOrigin(origin, request);
    }

    private static boolean sameOrigin(String origin, HttpServletRequest request) {
        String host = request.getHeader("Host");
        if (host == null || origin.equals("null")) {
            return false;
        }
        try {
            URI from = URI.create(origin);
            URI self = URI.create(request.getScheme() + "://" + host);
            return from.getScheme() != null
                    && from.getScheme().equalsIgnoreCase(self.getScheme())
                    && from.getHost() != null
                    && self.getHost() != null
                    && from.getHost()
                            .toLowerCase(Locale.ROOT)
                            .equals(self.getHost().toLowerCase(Locale.ROOT))
                    && port(from) == port(self);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static int port(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
    }
}
