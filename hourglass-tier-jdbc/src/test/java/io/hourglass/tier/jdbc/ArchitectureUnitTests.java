package io.hourglass.tier.jdbc;

import io.hourglass.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** This module uses the core only through its API, and its packages form no cycle ({@link ArchitectureRules}). */
class ArchitectureUnitTests {

    @Test
    void usesOnlyTheCoresApiAndHasNoPackageCycles() {
        ArchitectureRules.checkThisModule();
    }
}
