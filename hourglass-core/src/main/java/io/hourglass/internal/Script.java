package io.hourglass.internal;

import io.hourglass.StorageFormat;

/**
 * The Lua scripts, one per transition (BullMQ's layout), loaded from {@code io/hourglass/lua}. A line
 * {@code -- @include common.lua} is replaced by that file, so shared code is written once.
 */
enum Script {
    SCHEDULE("schedule"),
    CLAIM("claim"),
    ACK("ack"),
    NACK("nack"),
    EXTEND("extend"),
    RELEASE("release"),
    CANCEL("cancel"),
    RESCHEDULE("reschedule"),
    REQUEUE("requeue"),
    GET("get"),
    STATS("stats"),
    DEAD("dead"),
    OVERVIEW("overview"),
    JOBS("jobs"),
    HISTORY("history"),
    PAUSE("pause"),
    RUN_NOW("run_now"),
    DEAD_BULK("dead_bulk"),
    PURGE("purge"),
    EXPIRED("expired"),
    SCHEDULES("schedules"),
    CONFIG("config"),
    CONFLICT("conflict");

    private final String fileName;
    private final byte[] source;
    private final String sha;

    Script(String name) {
        this.fileName = name + ".lua";
        this.source = StorageFormat.scriptSource(name);
        this.sha = StorageFormat.scriptSha(name);
    }

    public String fileName() {
        return fileName;
    }

    public byte[] source() {
        return source;
    }

    public String sha() {
        return sha;
    }
}
