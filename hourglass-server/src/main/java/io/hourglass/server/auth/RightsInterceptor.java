package io.hourglass.server.auth;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Checks, before an endpoint runs (and before its body is read), that the caller's token holds one of the rights the
 * endpoint declares with {@link RequiresRight} (none declared: {@link Right#ADMIN}) and covers the topic of the path.
 * The topic is the {@code {topic}} path variable exactly as the controller will receive it. A refusal is an
 * {@link AccessDeniedException}, answered with 403. {@link PublicPaths} need nothing.
 */
public final class RightsInterceptor implements HandlerInterceptor {
    private static final Set<Right> ADMIN_ONLY = EnumSet.of(Right.ADMIN);

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getDispatcherType() == DispatcherType.ERROR || PublicPaths.isPublic(request)) {
            return true;
        }
        HandlerMethod method = handler instanceof HandlerMethod m ? m : null;
        if (method != null && method.hasMethodAnnotation(PublicEndpoint.class)) {
            return true;
        }
        RequiresRight declared = method == null ? null : method.getMethodAnnotation(RequiresRight.class);
        Set<Right> rights = declared == null ? ADMIN_ONLY : EnumSet.copyOf(Arrays.asList(declared.value()));
        String topic = topicOf(request);
        Object caller = request.getAttribute(ApiToken.REQUEST_ATTRIBUTE);
        if (!(caller instanceof ApiToken token) || !token.allows(rights, topic)) {
            throw new AccessDeniedException("Authorization: this token has no " + describe(rights) + " right "
                    + (topic == null ? "on any topic" : "on topic '" + topic + "'"));
        }
        return true;
    }

    private static String topicOf(HttpServletRequest request) {
        Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables instanceof Map<?, ?> map && map.get("topic") instanceof String topic ? topic : null;
    }

    private static String describe(Set<Right> rights) {
        return rights.stream().map(Right::jsonName).collect(Collectors.joining(" or "));
    }
}
