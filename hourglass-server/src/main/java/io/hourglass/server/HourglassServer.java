package io.hourglass.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The Hourglass HTTP server: a JSON API over one {@link io.hourglass.Hourglass} instance, plus HTTP callback delivery.
 * Run it with {@code java -jar hourglass-server.jar --help} to see the options. The instance, callback delivery, health
 * indicator and metrics come from hourglass-spring-boot-starter, configured from the flags by
 * {@link StarterPropertiesMapping}; without {@code --redis} the server adds an
 * {@link io.hourglass.server.embedded.EmbeddedRedis} ({@link io.hourglass.server.embedded.EmbeddedRedisConfiguration}).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class HourglassServer {

    /**
     * Parses the command line and environment (see {@link ServerArguments}) and runs the server until SIGTERM.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        ServerArguments arguments;
        try {
            arguments = ServerArguments.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(ServerArguments.usage());
            System.exit(2);
            return;
        }
        if (arguments.help()) {
            System.out.print(ServerArguments.usage());
            return;
        }
        SpringApplication.run(HourglassServer.class, arguments.toSpringArgs());
    }
}
