package io.hourglass.server.error;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.boot.web.error.ErrorAttributeOptions;
import org.springframework.boot.web.servlet.error.ErrorAttributes;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * Answers the errors that happen outside the controllers (forwarded by the container to the error path) with the status
 * the container chose and {@link JsonErrorAttributes}' body. A client that asks for the error path itself gets 404,
 * like for any path the API does not have (Spring's own error controller would answer 500).
 */
@RestController
public class JsonErrorController implements ErrorController {
    private final ErrorAttributes errorAttributes;

    /** @param errorAttributes the body of the error */
    public JsonErrorController(ErrorAttributes errorAttributes) {
        this.errorAttributes = errorAttributes;
    }

    /**
     * @param request the failed request, forwarded here by the container
     * @return the error's status and {@code {"error": "request: ..."}}
     */
    @RequestMapping("${server.error.path:/error}")
    public ResponseEntity<Map<String, Object>> error(HttpServletRequest request) {
        if (request.getDispatcherType() != DispatcherType.ERROR
                || !(request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer status)) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("error", "path: no such endpoint"));
        }
        Map<String, Object> body =
                errorAttributes.getErrorAttributes(new ServletWebRequest(request), ErrorAttributeOptions.defaults());
        return ResponseEntity.status(status).body(body);
    }
}
