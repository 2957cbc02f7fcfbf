package io.hourglass.server.api;

import java.util.regex.Pattern;

/** Checks the form of a receipt a pull worker presents, so that a malformed one is a 400, not a 409. */
final class Receipts {
    /** Receipts are opaque, but always 1 to 64 printable ASCII characters without spaces. */
    private static final Pattern FORM = Pattern.compile("[\\x21-\\x7E]{1,64}");

    private Receipts() {}

    /**
     * @param receipt the receipt from the request body
     * @return the receipt
     * @throws IllegalArgumentException naming {@code receipt} when it is missing or cannot be a receipt
     */
    static String check(String receipt) {
        if (receipt == null) {
            throw new IllegalArgumentException("receipt: required, the receipt of the delivery");
        }
        if (!FORM.matcher(receipt).matches()) {
            String shown = receipt.length() > 70 ? receipt.substring(0, 70) + "..." : receipt;
            throw new IllegalArgumentException("receipt: must be the receipt of a delivery (1 to 64 printable ASCII"
                    + " characters), got '" + shown + "'");
        }
        return receipt;
    }
}
