package io.hourglass.it;

/** A test's fixed wait, for the cases where there is nothing to poll for (e.g. proving that nothing happens). */
final class Pause {
    private Pause() {}

    /** Sleeps {@code ms} milliseconds; an interrupt fails the test. */
    static void millis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
