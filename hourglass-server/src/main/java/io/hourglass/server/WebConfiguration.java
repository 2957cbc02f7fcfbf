package io.hourglass.server;

import io.hourglass.server.api.RequestLimits;
import io.hourglass.server.auth.AccessConfiguration;
import io.hourglass.server.error.JsonErrorReportValve;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.config.annotation.ContentNegotiationConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The API speaks JSON only: answers are JSON whatever the request's {@code Accept} header asks for, even when Tomcat
 * refuses a request itself ({@link JsonErrorReportValve}). Request bodies are capped at the largest payload plus room
 * for the other fields ({@link RequestBodyLimitFilter}).
 */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration implements WebMvcConfigurer {

    /**
     * @return a customizer that makes Tomcat's own error answers (for requests it refuses before the application sees
     *     them) JSON, replacing the HTML error report valve
     */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            host.getPipeline().addValve(new JsonErrorReportValve());
            host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
        });
    }

    @Override
    public void configureContentNegotiation(ContentNegotiationConfigurer configurer) {
        configurer.ignoreAcceptHeader(true).defaultContentType(MediaType.APPLICATION_JSON);
    }

    /**
     * @param properties the starter's {@code hourglass.*} properties, from which the {@link io.hourglass.Hourglass}
     *     bean has the same limits
     * @return the limits on payloads and delays that the controllers check
     */
    @Bean
    public RequestLimits requestLimits(HourglassProperties properties) {
        return new RequestLimits(
                Math.toIntExact(Math.min(properties.getMaxPayloadSize().toBytes(), Integer.MAX_VALUE)),
                properties.getMaxDelay().toMillis());
    }

    /**
     * @param limits the limits
     * @return the registration of the body size cap, right after authentication (so that an unauthenticated
     *     caller learns nothing but 401)
     */
    @Bean
    public FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(RequestLimits limits) {
        FilterRegistrationBean<RequestBodyLimitFilter> registration =
                new FilterRegistrationBean<>(new RequestBodyLimitFilter(limits.maxBodyBytes()));
        registration.setOrder(AccessConfiguration.FILTER_ORDER + 1);
        return registration;
    }
}
