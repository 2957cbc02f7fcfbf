package io.hourglass.it;

import io.hourglass.CallbackOptions;
import io.hourglass.Hourglass;
import java.time.Duration;
import java.util.List;

/**
 * Callback delivery in a process of its own, for tests that pause or kill it: posts the namespace's callbacks (to
 * 127.0.0.1 too) with a request timeout of 5 s and prints {@code READY} once it runs. Arguments: redis URI, namespace,
 * sweep ms.
 */
public final class CallbackProcessMain {
    private CallbackProcessMain() {}

    public static void main(String[] args) throws Exception {
        Hourglass hourglass = Hourglass.builder()
                .redisUri(args[0])
                .namespace(args[1])
                .sweepInterval(Duration.ofMillis(Long.parseLong(args[2])))
                .callbackAllowList(List.of("127.0.0.1"))
                .build();
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().timeout(Duration.ofSeconds(5)).build());
        System.out.println("READY");
        System.out.flush();
        Thread.currentThread().join();
    }
}
