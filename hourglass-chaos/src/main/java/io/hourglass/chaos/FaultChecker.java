package io.hourglass.chaos;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The fault-injection checker: runs the chosen scenarios one after another and checks each one's history. Use it from
 * the command line through {@link ChaosMain}, or from a test:
 *
 * <pre>{@code
 * List<ScenarioResult> results = FaultChecker.run(ChaosOptions.defaults(runDir), System.out::println);
 * }</pre>
 */
public final class FaultChecker {
    private FaultChecker() {}

    /**
     * Runs every scenario of the options. Every worker, producer and server process is killed before this returns, also
     * when it throws.
     *
     * @param options what to run
     * @param report receives each scenario's one-line report as soon as it is known
     * @return the results, in scenario order
     * @throws Exception when a scenario could not be run (Redis did not start, a fault could not be injected)
     */
    public static List<ScenarioResult> run(ChaosOptions options, Consumer<String> report) throws Exception {
        Files.createDirectories(options.runDir());
        List<ScenarioResult> results = new ArrayList<>();
        try {
            for (Scenario scenario : options.scenarios()) {
                ScenarioResult result = new ScenarioRun(scenario, options).run();
                results.add(result);
                report.accept(result.line());
                Files.writeString(
                        options.runDir().resolve("results.txt"),
                        result.line() + "\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
        } finally {
            ChildJvm.killAll();
        }
        return results;
    }

    /**
     * @param results the results of a run
     * @return whether every scenario passed (nothing early, no unexplained duplicate, nothing lost where that fails)
     */
    public static boolean passed(List<ScenarioResult> results) {
        return results.stream().allMatch(ScenarioResult::passed);
    }
}
