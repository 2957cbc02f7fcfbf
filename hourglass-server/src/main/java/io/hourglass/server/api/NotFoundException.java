package io.hourglass.server.api;

/** Thrown by the controllers when the topic, job or dead letter in the path does not exist; answered with 404. */
public class NotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFoundException(String message) {
        super(message);
    }

    static NotFoundException job(String topic, String id) {
        return new NotFoundException("id: no job '" + id + "' in topic '" + topic + "'");
    }

    static NotFoundException deadLetter(String topic, String id) {
        return new NotFoundException("id: no dead job '" + id + "' in topic '" + topic + "'");
    }
}
