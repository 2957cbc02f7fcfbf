package io.hourglass.cli;

import io.hourglass.Inspector;
import picocli.CommandLine.Option;

/**
 * {@code --limit} and {@code --cursor}, mixed into the commands that list a page at a time ({@code jobs}, {@code dead},
 * {@code history}); each command checks the limit against its own store's range, 1 to 1000 for both.
 */
final class PageOptions {
    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "20",
            description = "most entries to list, 1 to " + Inspector.MAX_PAGE + " (default: ${DEFAULT-VALUE})")
    int limit;

    @Option(
            names = "--cursor",
            paramLabel = "CURSOR",
            description = "where the page starts: the cursor the previous page ended with")
    String cursor;
}
