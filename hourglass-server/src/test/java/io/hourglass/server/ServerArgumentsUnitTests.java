package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerArgumentsUnitTests {

  @Test
  void acceptsBothFlagStyles() {
    ServerArguments args = ServerArguments.parse(new String[] {"--port", "8081", "--namespace=shop",
        "--data-dir", "/tmp/x", "--shards=4", "--redis", "redis://h:6379"}, Map.of());

    assertThat(args.help()).isFalse();
    assertThat(args.toSpringArgs()).containsExactly("--server.port=8081", "--hourglass.redis=redis://h:6379",
        "--hourglass.data-dir=/tmp/x", "--hourglass.namespace=shop", "--hourglass.shards=4");
  }

  @Test
  void fallsBackToEnvironmentVariablesButFlagsWin() {
    ServerArguments args = ServerArguments.parse(new String[] {"--port=9000"},
        Map.of("HOURGLASS_PORT", "7000", "HOURGLASS_REDIS", "redis://r:1", "HOURGLASS_DATA_DIR", "/d"));

    assertThat(args.toSpringArgs()).containsExactly("--server.port=9000", "--hourglass.redis=redis://r:1",
        "--hourglass.data-dir=/d");
  }

  @Test
  void givesNoSettingsWhenNoneAreGiven() {
    assertThat(ServerArguments.parse(new String[0], Map.of()).toSpringArgs()).isEmpty();
  }

  @Test
  void recognisesHelp() {
    assertThat(ServerArguments.parse(new String[] {"--help"}, Map.of()).help()).isTrue();
    assertThat(ServerArguments.usage()).contains("--port", "HOURGLASS_PORT", "--redis", "--data-dir",
        "--namespace", "--shards", "--help");
  }

  @Test
  void refusesUnknownFlagsMissingValuesAndBadNumbers() {
    assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--prot", "1"}, Map.of()))
        .hasMessageStartingWith("prot:");
    assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--port"}, Map.of()))
        .hasMessageStartingWith("port:");
    assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--port", "http"}, Map.of()))
        .hasMessageStartingWith("port:");
    assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--shards=0"}, Map.of()))
        .hasMessageStartingWith("shards:");
    assertThatThrownBy(() -> ServerArguments.parse(new String[0], Map.of("HOURGLASS_PORT", "99999")))
        .hasMessageStartingWith("port:");
    assertThatThrownBy(() -> ServerArguments.parse(new String[] {"8080"}, Map.of()))
        .hasMessageStartingWith("8080:");
    assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--namespace", "a b"}, Map.of()))
        .hasMessageStartingWith("namespace:");
  }
}
