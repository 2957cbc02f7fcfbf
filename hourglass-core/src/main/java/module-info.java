/**
 * Hourglass, a distributed delay queue on Redis. Only the API package is exported; the implementation
 * ({@code io.hourglass.internal}) and the checks it shares with the API ({@code io.hourglass.validation}) are reachable
 * only through it, and the builder finds the implementation as a service.
 */
module io.hourglass {
    requires transitive lettuce.core;
    requires org.apache.httpcomponents.client5.httpclient5;
    requires org.apache.httpcomponents.core5.httpcore5;
    requires org.slf4j;
    requires com.cronutils;

    exports io.hourglass;

    uses io.hourglass.HourglassProvider;

    provides io.hourglass.HourglassProvider with
            io.hourglass.internal.HourglassClientProvider;
}
