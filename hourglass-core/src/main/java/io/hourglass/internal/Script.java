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
    GET("get", Access.READS),
    STATS("stats", Access.READS),
    DEAD("dead", Access.READS),
    OVERVIEW("overview", Access.READS),
    JOBS("jobs", Access.READS),
    HISTORY("history", Access.READS),
    PAUSE("pause"),
    RUN_NOW("run_now"),
    DEAD_BULK("dead_bulk"),
    PURGE("purge"),
    EXPIRED("expired", Access.READS),
    SCHEDULES("schedules"),
    CONFIG("config"),
    CONFLICT("conflict", Access.READS);

    /** What a script does to the data, which Redis needs to know of a function (its flags). */
    enum Access {
        /** Reads and writes. Redis 7 refuses the whole call while over {@code maxmemory} (the OOM error). */
        WRITES,
        /**
         * Reads only (the function flag {@code no-writes}), so it also runs while Redis is over {@code maxmemory}, as
         * it did by {@code EVALSHA}. Redis stops such a script at its first write command.
         */
        READS
    }

    private final String fileName;
    private final byte[] source;
    private final String sha;
    private final Access access;

    Script(String name) {
        this(name, Access.WRITES);
    }

    Script(String name, Access access) {
        this.access = access;
        this.fileName = name + ".lua";
        this.source = StorageFormat.scriptSource(name);
        this.sha = StorageFormat.scriptSha(name);
    }

    /** @return whether the script writes or only reads */
    Access access() {
        return access;
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
