package io.hourglass.internal;

/** The two kinds of delivery a topic has; each has its own waiting and active sets. */
enum Lane {
    /** Jobs for workers: in-process handlers and HTTP pull workers. */
    WORKER(1),
    /** Jobs with a callback URL, POSTed by a callback dispatcher. */
    CALLBACK(2);

    /** The lane's number in scripts and wake messages. */
    final int index;

    Lane(int index) {
        this.index = index;
    }

    static Lane of(int index) {
        return index == 2 ? CALLBACK : WORKER;
    }
}
