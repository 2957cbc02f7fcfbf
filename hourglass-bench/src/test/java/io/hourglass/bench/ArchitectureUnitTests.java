package io.hourglass.bench;

import io.hourglass.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The bench uses the core only through its API ({@link ArchitectureRules}). Its own packages are not checked for
 * cycles: the root package holds both the command that runs the workloads and the types they share
 * ({@code BenchContext}, {@code Sizes}, {@code SystemName}, …), so {@code io.hourglass.bench} and its
 * {@code workloads}, {@code systems} and {@code report} packages depend on each other both ways.
 */
class ArchitectureUnitTests {

    @Test
    void usesOnlyTheCoresApi() {
        ArchitectureRules.checkThisModuleUsesOnlyTheCoresApi();
    }
}
