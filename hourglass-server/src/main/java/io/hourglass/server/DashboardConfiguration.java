package io.hourglass.server;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.LiteWebJarsResourceResolver;

/**
 * Serves the web dashboard: {@code GET /} answers the page ({@code static/dashboard/index.html}), {@code /dashboard/**}
 * its own script and style sheet, and {@code /webjars/**} the libraries it loads (uPlot), by paths without a version
 * (webjars-locator-lite). These files are public ({@link io.hourglass.server.auth.PublicPaths}) and hold no data: the
 * page reads everything through the token-protected {@code /v1} API. Only these paths are served; any other unknown
 * path is still a JSON 404.
 */
@Configuration(proxyBeanMethods = false)
public class DashboardConfiguration implements WebMvcConfigurer {

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addViewController("/").setViewName("forward:/dashboard/index.html");
    }

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        // no-cache revalidates (Last-Modified) so that a new server version's files are picked up at once.
        registry.addResourceHandler("/dashboard/**")
                .addResourceLocations("classpath:/static/dashboard/")
                .setCacheControl(CacheControl.noCache())
                .resourceChain(true);
        registry.addResourceHandler("/webjars/**")
                .addResourceLocations("classpath:/META-INF/resources/webjars/")
                .setCacheControl(CacheControl.noCache())
                .resourceChain(true)
                .addResolver(new LiteWebJarsResourceResolver());
    }
}
