package io.hourglass.examples.meetingreminders;

import io.hourglass.testkit.ArchitectureRules;
import org.junit.jupiter.api.Test;

/** This example uses Hourglass only through its API, and its packages form no cycle ({@link ArchitectureRules}). */
class ArchitectureUnitTests {

    @Test
    void usesOnlyTheCoresApiAndHasNoPackageCycles() {
        ArchitectureRules.checkThisModule();
    }
}
