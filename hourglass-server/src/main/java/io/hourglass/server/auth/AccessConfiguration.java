package io.hourglass.server.auth;

import io.hourglass.server.HourglassServerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Wires the refusal of cross-site requests ({@link CrossSiteRequestFilter}), authentication ({@link BearerTokenFilter})
 * and authorization ({@link RightsInterceptor}) from the configured tokens, and warns at startup when the API is
 * unauthenticated.
 */
@Configuration(proxyBeanMethods = false)
public class AccessConfiguration implements WebMvcConfigurer {
    /** Order of the token filter: after Spring's own (encoding, request context), before the body size limit. */
    public static final int FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    private static final Logger log = LoggerFactory.getLogger(AccessConfiguration.class);

    /**
     * @param properties the server's settings
     * @return the access rules
     * @throws IllegalArgumentException when the tokens cannot be read, or none are configured on an external Redis
     *     without {@code insecure}: the server does not start
     */
    @Bean
    public ApiAccess apiAccess(HourglassServerProperties properties) {
        ApiAccess access = ApiAccess.configure(
                properties.tokens(), properties.tokensFile(), properties.embeddedRedis(), properties.insecure());
        access.startupWarning().ifPresent(log::warn);
        return access;
    }

    /**
     * @param access the access rules
     * @return the registration of the token filter for every path
     */
    @Bean
    public FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(ApiAccess access) {
        FilterRegistrationBean<BearerTokenFilter> registration =
                new FilterRegistrationBean<>(new BearerTokenFilter(access));
        registration.setOrder(FILTER_ORDER);
        return registration;
    }

    /**
     * @return the registration of the cross-site request filter for every path, just before the token filter: a forged
     *     request is refused whatever its token
     */
    @Bean
    public FilterRegistrationBean<CrossSiteRequestFilter> crossSiteRequestFilter() {
        FilterRegistrationBean<CrossSiteRequestFilter> registration =
                new FilterRegistrationBean<>(new CrossSiteRequestFilter());
        registration.setOrder(FILTER_ORDER - 1);
        return registration;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new RightsInterceptor());
    }
}
