package io.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class FreePortsUnitTests {

    @Test
    void aPortIsDrawnAgainUntilItIsNoHigherThanTheCallerCanUse() throws Exception {
        List<Integer> drawn = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            drawn.add(FreePorts.pick());
        }
        Collections.sort(drawn);
        // Half the ports the system hands out are above the median: a bound that pick ignored would show.
        int highest = drawn.get(drawn.size() / 2);
        for (int i = 0; i < 50; i++) {
            assertThat(FreePorts.pick(highest)).isBetween(1, highest);
        }
    }

    @Test
    void aClusterNodeLeavesRoomForItsBusTenThousandPortsAbove() {
        ServerOptions plain = ServerOptions.DEFAULTS;
        assertThat(plain.highestPort()).isEqualTo(65_535);
        ServerOptions cluster = plain.with(o -> o.directives = List.of(List.of("cluster-enabled", "yes")));
        assertThat(cluster.highestPort()).isEqualTo(55_535);
        assertThat(plain.with(o -> o.directives =
                                List.of(List.of("cluster-enabled", "yes"), List.of("cluster-port", "7000")))
                        .highestPort())
                .as("a bus port of its own")
                .isEqualTo(65_535);
        assertThat(plain.with(o -> o.directives =
                                List.of(List.of("cluster-enabled", "yes"), List.of("cluster-enabled", "no")))
                        .highestPort())
                .as("the last directive wins, as in Redis")
                .isEqualTo(65_535);
    }
}
