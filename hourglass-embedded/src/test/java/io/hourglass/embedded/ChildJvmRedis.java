package io.hourglass.embedded;

import java.nio.file.Path;

/**
 * Run in a child JVM by the tests: starts Redis on the data dir given as first argument, with the watchdog on or off as
 * the second argument says, and prints {@code pid=<redis pid>}. Then it waits to be killed or, if the third argument is
 * {@code exit}, exits normally at once.
 */
public final class ChildJvmRedis {

    private ChildJvmRedis() {}

    public static void main(String[] args) throws Exception {
        RedisServerProcess redis = RedisServerProcess.builder()
                .dataDir(Path.of(args[0]))
                .watchParent(Boolean.parseBoolean(args[1]))
                .build()
                .start();
        System.out.println("pid=" + redis.pid());
        System.out.flush();
        if (args.length > 2 && args[2].equals("exit")) {
            return;
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
