package io.hourglass.bench.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU time that one or more running Redis servers have used so far ({@code INFO cpu}: {@code used_cpu_sys} plus
 * {@code used_cpu_user}, the main thread and every other), and the script calls they served, each read through a
 * connection of its own. Not thread-safe; close it to close the connections.
 */
public final class ServerCpu implements AutoCloseable {
    private final List<RedisClient> clients = new ArrayList<>();
    private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();

    private ServerCpu() {}

    /**
     * @param uris {@code redis://host:port} of each server, e.g. a cluster's masters
     * @return a reader connected to each
     */
    public static ServerCpu of(List<String> uris) {
        ServerCpu cpu = new ServerCpu();
        try {
            for (String uri : uris) {
                RedisClient client = RedisClient.create(uri);
                cpu.clients.add(client);
                cpu.connections.add(client.connect());
            }
            return cpu;
        } catch (RuntimeException e) {
            cpu.close();
            throw e;
        }
    }

    /** @return each server's CPU time so far, in µs, in the order of the URIs */
    public long[] micros() {
        long[] micros = new long[connections.size()];
        for (int i = 0; i < micros.length; i++) {
            InfoSection info = InfoSection.parse(connections.get(i).sync().info("cpu"));
            micros[i] = Math.round((info.doubleValue("used_cpu_sys") + info.doubleValue("used_cpu_user")) * 1e6);
        }
        return micros;
    }

    /** @return the script round trips the servers have served so far, summed ({@code INFO commandstats}) */
    public long scriptCalls() {
        long calls = 0;
        for (StatefulRedisConnection<String, String> connection : connections) {
            calls += CommandStats.parse(connection.sync().info("commandstats")).scriptCalls();
        }
        return calls;
    }

    @Override
    public void close() {
        connections.forEach(StatefulRedisConnection::close);
        clients.forEach(RedisClient::shutdown);
    }
}
