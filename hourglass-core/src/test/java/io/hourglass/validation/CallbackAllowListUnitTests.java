package io.hourglass.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallbackAllowListUnitTests {

    private static String refusal(List<String> entries, String url) {
        return new CallbackAllowList(entries).refusal(URI.create(url));
    }

    private static InetAddress ip(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal);
    }

    @Test
    void byDefaultInternalAddressesAreRefusedAndPublicOnesAllowed() throws UnknownHostException {
        for (String url : List.of(
                "http://169.254.169.254/latest/meta-data",
                "http://127.0.0.1:6379/",
                "http://localhost:8080/",
                "http://10.1.2.3/",
                "http://172.16.0.1/",
                "http://192.168.1.1/",
                "http://0.0.0.0:6379/",
                "http://100.100.100.200/",
                "http://224.0.0.1/",
                "http://[::1]:6379/",
                "http://[::]/",
                "http://[fd00:ec2::254]/",
                "http://[fe80::1]/",
                "http://[::ffff:169.254.169.254]/",
                "http://[::ffff:127.0.0.1]/",
                "http://[64:ff9b::a9fe:a9fe]/",
                "http://[2002:7f00:1::]/")) {
            assertThat(refusal(List.of(), url)).as(url).contains("resolves to an internal address");
        }
        CallbackAllowList none = new CallbackAllowList(List.of());
        assertThat(none.refusal("hooks.example.com", new InetAddress[] {ip("93.184.215.14"), ip("2606:2800::1")}))
                .isNull();
        assertThat(none.refusal("hooks.example.com", new InetAddress[] {ip("93.184.215.14"), ip("10.0.0.1")}))
                .as("one internal address among public ones")
                .contains("internal address");
        assertThat(none.refusal("h", new InetAddress[0])).contains("does not resolve");
    }

    @Test
    void ipv4MappedAndEmbeddedFormsAreJudgedByTheirIpv4() throws UnknownHostException {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = (byte) 169;
        mapped[13] = (byte) 254;
        mapped[14] = (byte) 169;
        mapped[15] = (byte) 254;
        // An Inet6Address that keeps the mapped form (getByAddress would turn it into an Inet4Address).
        InetAddress keptMapped = java.net.Inet6Address.getByAddress(null, mapped, -1);
        assertThat(CallbackAllowList.isInternal(keptMapped)).isTrue();
        assertThat(CallbackAllowList.isInternal(ip("64:ff9b::5db8:d70e"))).isFalse();
        assertThat(CallbackAllowList.isInternal(ip("2002:5db8:d70e::1"))).isFalse();
        assertThat(CallbackAllowList.isInternal(ip("2002:0a00:0001::1"))).isTrue();
        assertThat(CallbackAllowList.isInternal(ip("203.0.113.7"))).isFalse();
    }

    @Test
    void listedRangesLetChosenInternalAddressesThrough() {
        assertThat(refusal(List.of("127.0.0.0/8"), "http://127.0.0.1:8080/x")).isNull();
        assertThat(refusal(List.of("127.0.0.1"), "http://localhost:8080/x")).isNull();
        assertThat(refusal(List.of("::1/128"), "http://[::1]:9/x")).isNull();
        assertThat(refusal(List.of("10.1.2.3"), "http://10.1.2.3/x")).isNull();
        assertThat(refusal(List.of("10.1.2.3"), "http://10.1.2.4/x")).contains("internal address");
        assertThat(refusal(List.of("10.0.0.0/8"), "http://127.0.0.1/x")).contains("internal address");
        assertThat(refusal(List.of("2001:db8::/32"), "http://[::1]:9/x")).contains("internal address");
    }

    @Test
    void listedNamesNeverLetInternalAddressesThrough() throws UnknownHostException {
        CallbackAllowList list = new CallbackAllowList(List.of("localhost", "hooks.example.com", "*.partner.org"));
        assertThat(list.refusal(URI.create("http://localhost:8080/x"))).contains("internal address");
        assertThat(list.refusal("hooks.example.com", new InetAddress[] {ip("169.254.169.254")}))
                .contains("internal address");
        assertThat(list.refusal("hooks.example.com", new InetAddress[] {ip("93.184.215.14")}))
                .isNull();
    }

    @Test
    void namesMatchExactlyOrAsSubdomains() throws UnknownHostException {
        CallbackAllowList list = new CallbackAllowList(List.of("hooks.example.com", "*.partner.org"));
        InetAddress[] publicAddress = {ip("93.184.215.14")};
        assertThat(list.refusal("HOOKS.example.com", publicAddress)).isNull();
        assertThat(list.refusal("a.b.partner.org", publicAddress)).isNull();
        assertThat(list.refusal("partner.org.evil.com", publicAddress)).contains("not in the callback allow-list");
        assertThat(list.refusal("example.com", publicAddress)).contains("not in the callback allow-list");
        assertThat(refusal(List.of("10.0.0.0/8"), "http://no-such-host.invalid/x"))
                .contains("does not resolve");
        // Checked again on each connection; scheduling does not wait for the receiver's DNS.
        assertThat(refusal(List.of(), "http://no-such-host.invalid/x")).isNull();
        assertThat(refusal(List.of("*.invalid"), "http://no-such-host.invalid/x"))
                .isNull();
    }

    @Test
    void refusalsNeverNameTheAddressesAHostResolvedTo() throws UnknownHostException {
        assertThat(new CallbackAllowList(List.of()).refusal("internal.example", new InetAddress[] {ip("10.9.8.7")}))
                .doesNotContain("10.9.8.7");
    }

    @Test
    void malformedEntriesAreRefusedByName() {
        for (String bad : List.of("", "10.0.0.0/33", "http://x", "a b", "10.0.0.0/x")) {
            assertThatThrownBy(() -> new CallbackAllowList(List.of(bad)))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("callbackAllowList:");
        }
    }
}
