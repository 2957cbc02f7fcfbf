/**
 * Local {@code redis-server} processes for development and tests: {@link io.hourglass.embedded.RedisBinaries} finds an
 * executable (explicit, on {@code PATH}, or shipped in embedded-redis) and
 * {@link io.hourglass.embedded.RedisServerProcess} starts, stops, kills, pauses and restarts one server.
 */
package io.hourglass.embedded;
