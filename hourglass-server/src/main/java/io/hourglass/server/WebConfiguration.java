package io.hourglass.server;

import io.hourglass.server.api.RequestLimits;
import io.hourglass.server.auth.AccessConfiguration;
import io.hourglass.server.error.JsonErrorReportValve;
import io.hourglass.server.error.UnreadBodyValve;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.beans.factory.annotation.Value;
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

    /**
     * @return a customizer that lets TRACE requests reach {@link RequestShapeFilter}, which refuses them with a JSON
     *     body (Tomcat's own refusal has none); nothing echoes them
     */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> traceToTheApi() {
        return factory -> factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
    }

    /**
     * @return a customizer that adds {@link UnreadBodyValve}: an early error answer closes the connection without
     *     reading the rest of the request body, so that a slow client holds no request thread
     */
    @Bean
    public WebServerFactoryCustomizer<TomcatServletWebServerFactory> closeWithoutReadingTheBody() {
        return factory -> factory.addContextValves(new UnreadBodyValve());
    }

    /** @return the registration of the filter that refuses TRACE and path parameters, ahead of authentication */
    @Bean
    public FilterRegistrationBean<RequestShapeFilter> requestShapeFilter() {
        FilterRegistrationBean<RequestShapeFilter> registration =
                new FilterRegistrationBean<>(new RequestShapeFilter());
        registration.setOrder(AccessConfiguration.FILTER_ORDER - 1);
        return registration;
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
                properties.getMaxDelay().toMillis(),
                properties.getCallbackDelivery().getMaxDispatchDeadline().toMillis());
    }

    /**
     * @param limits the limits
     * @param bodyReadTimeoutMs how long a request body may take to arrive, in ms
     *     ({@code hourglass.body-read-timeout-ms})
     * @return the registration of the body size and time caps, right after authentication (so that an unauthenticated
     *     caller learns nothing but 401)
     */
    @Bean
    public FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(
            RequestLimits limits, @Value("${hourglass.body-read-timeout-ms:30000}") long bodyReadTimeoutMs) {
        FilterRegistrationBean<RequestBodyLimitFilter> registration =
                new FilterRegistrationBean<>(new RequestBodyLimitFilter(limits.maxBodyBytes(), bodyReadTimeoutMs));
        registration.setOrder(AccessConfiguration.FILTER_ORDER + 1);
        return registration;
    }
}
