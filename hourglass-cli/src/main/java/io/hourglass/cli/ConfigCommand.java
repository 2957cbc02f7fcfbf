package io.hourglass.cli;

import static io.hourglass.cli.Output.row;

import io.hourglass.Hourglass;
import io.hourglass.TopicConfig;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hourglass config TOPIC}: shows a topic's flow control, or changes the limits given as options and keeps the
 * others. The settings are stored in Redis and enforced by every process's claims.
 */
@Command(
        name = "config",
        description = "Shows a topic's flow control (rate limit, burst, concurrency cap), or sets the limits given as"
                + " options and keeps the others; 0 removes a limit. Stored in Redis, in force at once in every"
                + " process.")
final class ConfigCommand extends Commands.HourglassCommand {
    @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
    String topic;

    @Option(
            names = "--rate",
            paramLabel = "PER_SECOND",
            description = "deliveries per second across every worker of the topic; 0 for no rate limit")
    Double rate;

    @Option(
            names = "--burst",
            paramLabel = "N",
            description = "deliveries allowed at once after an idle time; 0 for the default (a second's worth)")
    Integer burst;

    @Option(
            names = "--max-concurrency",
            paramLabel = "N",
            description = "most jobs ACTIVE at once across every worker of the topic; 0 for no cap")
    Integer maxConcurrency;

    /** {@code config} in JSON. */
    record ConfigView(String topic, double ratePerSecond, int burst, int maxConcurrency) {}

    @Override
    int run(Hourglass hourglass, Output output) {
        TopicConfig config = hourglass.inspector().topicConfig(topic);
        if (rate != null || burst != null || maxConcurrency != null) {
            double newRate = rate != null ? rate : config.ratePerSecond();
            // A new rate without --burst gets the default burst for that rate, not the old rate's.
            int newBurst = burst != null ? burst : rate != null || newRate == 0 ? 0 : config.burst();
            int newCap = maxConcurrency != null ? maxConcurrency : config.maxConcurrency();
            hourglass.inspector().configureTopic(topic, new TopicConfig(newRate, newBurst, newCap));
            config = hourglass.inspector().topicConfig(topic);
        }
        if (output.json()) {
            output.printJson(new ConfigView(topic, config.ratePerSecond(), config.burst(), config.maxConcurrency()));
            return HourglassCli.EXIT_OK;
        }
        output.printTable(
                row("TOPIC", "RATE/S", "BURST", "MAX CONCURRENCY"),
                List.of(row(
                        topic,
                        config.limitsRate() ? String.valueOf(config.ratePerSecond()) : "-",
                        config.limitsRate() ? String.valueOf(config.burst()) : "-",
                        config.capsConcurrency() ? String.valueOf(config.maxConcurrency()) : "-")));
        return HourglassCli.EXIT_OK;
    }
}
