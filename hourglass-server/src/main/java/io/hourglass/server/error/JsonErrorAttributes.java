package io.hourglass.server.error;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.web.error.ErrorAttributeOptions;
import org.springframework.boot.web.servlet.error.DefaultErrorAttributes;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.WebRequest;

/**
 * The body of errors that happen outside the controllers (and so outside
 * {@link io.hourglass.server.api.ApiExceptionHandler}), e.g. a request the container refuses: {@code {"error": ...}}
 * like every other error of the API.
 */
@Component
public class JsonErrorAttributes extends DefaultErrorAttributes {

    @Override
    public Map<String, Object> getErrorAttributes(WebRequest request, ErrorAttributeOptions options) {
        Map<String, Object> all =
                super.getErrorAttributes(request, options.including(ErrorAttributeOptions.Include.MESSAGE));
        Object message = all.get("message");
        Object reason = all.get("error");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", "request: " + (message != null && !message.toString().isBlank() ? message : reason));
        return body;
    }
}
