package io.hourglass.validation;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where callbacks may go: host names ({@code api.example.com}, or {@code *.example.com} for its subdomains) and
 * address ranges ({@code 203.0.113.7}, {@code 10.0.0.0/8}, {@code 2001:db8::/32}). A URL is allowed when its host
 * matches a name, or when every address the host resolves to lies in a range, so a name that resolves to an
 * internal address is refused unless that address is listed. Empty allows everything. Immutable, thread-safe.
 *
 * <p>Checked when a job is scheduled and again just before each delivery, after a fresh DNS lookup. The JVM
 * caches lookups (30 s by default), so the HTTP client connects to the address that was just checked.
 */
public final class CallbackAllowList {
    private final List<String> names = new ArrayList<>();
    private final List<Range> ranges = new ArrayList<>();

    private record Range(byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * @param entries host names, {@code *.}-prefixed domains, IP addresses or CIDR ranges
     * @throws IllegalArgumentException naming {@code callbackAllowList} when an entry is malformed
     */
    public CallbackAllowList(List<String> entries) {
        for (String raw : entries) {
            String entry = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("callbackAllowList: empty entry");
            }
            if (isAddressOrRange(entry)) {
                ranges.add(parseRange(entry));
            } else if (entry.matches("(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")) {
                names.add(entry);
            } else {
                throw new IllegalArgumentException("callbackAllowList: not a host name, address or CIDR range: " + raw);
            }
        }
    }

    /** @return whether no entry was given, which allows every host */
    public boolean isEmpty() {
        return names.isEmpty() && ranges.isEmpty();
    }

    /**
     * @param url a callback URL
     * @return null when allowed, else why not
     */
    public String refusal(URI url) {
        if (isEmpty()) {
            return null;
        }
        String host = url.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        for (String name : names) {
            if (name.startsWith("*.") ? host.endsWith(name.substring(1)) : host.equals(name)) {
                return null;
            }
        }
        if (ranges.isEmpty()) {
            return "host " + host + " is not in the callback allow-list";
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return "host " + host + " does not resolve";
        }
        for (InetAddress address : addresses) {
            if (ranges.stream().noneMatch(r -> r.contains(address.getAddress()))) {
                return "host " + host + " resolves to " + address.getHostAddress() + ", which the callback allow-list"
                        + " does not include";
            }
        }
        return null;
    }

    private static boolean isAddressOrRange(String entry) {
        String address = entry.contains("/") ? entry.substring(0, entry.indexOf('/')) : entry;
        return address.contains(":") || address.matches("[0-9.]+");
    }

    private static Range parseRange(String entry) {
        try {
            int slash = entry.indexOf('/');
            // Literal addresses only: getByName does no DNS lookup for them.
            byte[] network = InetAddress.getByName(slash < 0 ? entry : entry.substring(0, slash))
                    .getAddress();
            int prefix = slash < 0 ? network.length * 8 : Integer.parseInt(entry.substring(slash + 1));
            if (prefix < 0 || prefix > network.length * 8) {
                throw new IllegalArgumentException("callbackAllowList: prefix out of range in " + entry);
            }
            return new Range(network, prefix);
        } catch (UnknownHostException | NumberFormatException e) {
            throw new IllegalArgumentException("callbackAllowList: malformed address or range " + entry, e);
        }
    }
}
