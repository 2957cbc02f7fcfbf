package io.hourglass.validation;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where callbacks may go. Two rules, applied to every address a callback host resolves to:
 *
 * <ol>
 *   <li>An address inside a listed range ({@code 203.0.113.7}, {@code 10.0.0.0/8}, {@code 2001:db8::/32}) is allowed,
 *       internal or not: this is how chosen internal hosts are let through.
 *   <li>Any other address is allowed only when it is public (see {@link #isInternal}) and either the list is empty or
 *       the URL's host matches a listed name ({@code api.example.com}, or {@code *.example.com} for its subdomains). A
 *       listed name never lets an internal address through: a name that resolves to 127.0.0.1 or 169.254.169.254 is
 *       refused unless that address is in a listed range.
 * </ol>
 *
 * <p>So the empty list (the default) allows every public address and refuses loopback, private, link-local, metadata
 * and the other internal addresses. Immutable, thread-safe.
 *
 * <p>Checked when a job is scheduled ({@link #refusal(URI)}) and again on every connection a delivery opens
 * ({@link #refusal(String, InetAddress[])} on the addresses just resolved, which are the ones connected to), so a DNS
 * answer that changes between the two (DNS rebinding) is caught.
 */
public final class CallbackAllowList {
    /**
     * Internal, non-routable or special-purpose ranges, refused unless listed: unspecified, loopback, RFC 1918, shared
     * (CGNAT, also Alibaba's metadata 100.100.100.200), link-local (the clouds' metadata 169.254.169.254), IETF
     * protocol assignments, benchmarking, multicast, reserved and broadcast; IPv4-compatible IPv6, local-use NAT64,
     * discard, Teredo (its IPv4 is obfuscated), unique local (fd00:ec2::254 among them), link-local, site-local and
     * multicast IPv6. IPv4-mapped, NAT64 and 6to4 addresses are judged by the IPv4 they carry.
     */
    private static final List<Range> INTERNAL = List.of(
            Range.parse("0.0.0.0/8"),
            Range.parse("10.0.0.0/8"),
            Range.parse("100.64.0.0/10"),
            Range.parse("127.0.0.0/8"),
            Range.parse("169.254.0.0/16"),
            Range.parse("172.16.0.0/12"),
            Range.parse("192.0.0.0/24"),
            Range.parse("192.168.0.0/16"),
            Range.parse("198.18.0.0/15"),
            Range.parse("224.0.0.0/4"),
            Range.parse("240.0.0.0/4"),
            Range.parse("::/96"),
            Range.parse("64:ff9b:1::/48"),
            Range.parse("100::/64"),
            Range.parse("2001::/32"),
            Range.parse("fc00::/7"),
            Range.parse("fe80::/10"),
            Range.parse("fec0::/10"),
            Range.parse("ff00::/8"));

    // Built from bytes: InetAddress turns an IPv4-mapped literal into the IPv4 address it carries.
    private static final Range IPV4_MAPPED =
            new Range(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0}, 96);
    private static final Range NAT64 = Range.parse("64:ff9b::/96");
    private static final Range SIX_TO_FOUR = Range.parse("2002::/16");

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

        static Range parse(String entry) {
            try {
                int slash = entry.indexOf('/');
                // Literal addresses only (isAddressOrRange checked the characters): getByName does no DNS lookup.
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

    /**
     * @param entries host names, {@code *.}-prefixed domains, IP addresses or CIDR ranges; not null
     * @throws IllegalArgumentException naming {@code callbackAllowList} when an entry is malformed
     */
    public CallbackAllowList(List<String> entries) {
        for (String raw : entries) {
            String entry = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("callbackAllowList: empty entry");
            }
            if (isAddressOrRange(entry)) {
                ranges.add(Range.parse(entry));
            } else if (entry.matches("(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")) {
                names.add(entry);
            } else {
                throw new IllegalArgumentException("callbackAllowList: not a host name, address or CIDR range: " + raw);
            }
        }
    }

    /** @return whether no entry was given: every public address is allowed, no internal one */
    public boolean isEmpty() {
        return names.isEmpty() && ranges.isEmpty();
    }

    /**
     * Resolves the URL's host (a fresh lookup, through the JVM's DNS cache) and checks every address. A host that does
     * not resolve now is allowed when the list is empty or names it (each connection checks it again), so that
     * scheduling does not depend on the receiver's DNS being up; with only ranges to match it is refused.
     *
     * @param url an absolute callback URL; not null
     * @return null when allowed, else why not; the reason names the host but never the addresses it resolved to
     */
    public String refusal(URI url) {
        String host = bare(url.getHost());
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return isEmpty() || nameListed(host) ? null : "host " + host + " does not resolve";
        }
        return refusal(host, addresses);
    }

    /**
     * Checks addresses a host has just resolved to, before connecting to them.
     *
     * @param host the host name or address literal as in the URL (brackets around IPv6 allowed); not null
     * @param addresses every address the host resolved to; not null
     * @return null when every address is allowed, else why not; the reason names the host but never the addresses
     */
    public String refusal(String host, InetAddress[] addresses) {
        String bare = bare(host);
        if (addresses.length == 0) {
            return "host " + bare + " does not resolve";
        }
        boolean nameListed = isEmpty() || nameListed(bare);
        for (InetAddress address : addresses) {
            byte[] bytes = address.getAddress();
            if (ranges.stream().anyMatch(r -> r.contains(bytes))) {
                continue;
            }
            if (isInternal(address)) {
                return "host " + bare + " resolves to an internal address (loopback, private, link-local, metadata"
                        + " or another special-purpose range), which the callback allow-list does not include";
            }
            if (!nameListed) {
                return "host " + bare + " is not in the callback allow-list";
            }
        }
        return null;
    }

    /**
     * @param address an IPv4 or IPv6 address; not null
     * @return whether it is internal or special-purpose (see the class description), IPv4-mapped, NAT64 and 6to4 forms
     *     judged by the IPv4 address they carry
     */
    public static boolean isInternal(InetAddress address) {
        if (address.isAnyLocalAddress()
                || address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isMulticastAddress()) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (bytes.length == 16) {
            if (IPV4_MAPPED.contains(bytes) || NAT64.contains(bytes)) {
                return isInternalIpv4(Arrays.copyOfRange(bytes, 12, 16));
            }
            if (SIX_TO_FOUR.contains(bytes)) {
                return isInternalIpv4(Arrays.copyOfRange(bytes, 2, 6));
            }
        }
        return INTERNAL.stream().anyMatch(r -> r.contains(bytes));
    }

    private static boolean isInternalIpv4(byte[] ipv4) {
        return INTERNAL.stream().anyMatch(r -> r.contains(ipv4));
    }

    private boolean nameListed(String host) {
        return names.stream().anyMatch(name -> matches(name, host));
    }

    private static boolean matches(String name, String host) {
        return name.startsWith("*.") ? host.endsWith(name.substring(1)) : host.equals(name);
    }

    private static String bare(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    private static boolean isAddressOrRange(String entry) {
        String address = entry.contains("/") ? entry.substring(0, entry.indexOf('/')) : entry;
        return address.contains(":") || address.matches("[0-9.]+");
    }
}
