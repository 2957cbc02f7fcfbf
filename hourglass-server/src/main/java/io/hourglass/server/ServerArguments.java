package io.hourglass.server;

import io.hourglass.Hourglass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server's command line: each flag accepted as {@code --name value} and {@code --name=value}, each with an
 * environment variable {@code HOURGLASS_NAME} as a fallback (a flag wins over the variable). Immutable.
 *
 * @param help whether {@code --help} was given
 * @param values the settings given, by flag name without the dashes (e.g. {@code data-dir}); absent = default
 */
public record ServerArguments(boolean help, Map<String, String> values) {
  /** The flags, with their Spring property and help text. */
  enum Flag {
    PORT("port", "server.port", "HTTP port; 0 picks a free one (default 8080)"),
    REDIS("redis", "hourglass.redis", "Redis URI, e.g. redis://host:6379; absent = embedded Redis (development)"),
    DATA_DIR("data-dir", "hourglass.data-dir", "data folder of the embedded Redis (default ./hourglass-data)"),
    NAMESPACE("namespace", "hourglass.namespace", "key namespace in Redis (default \"default\")"),
    SHARDS("shards", "hourglass.shards", "shards per topic (default 1)");

    final String name;
    final String property;
    final String help;

    Flag(String name, String property, String help) {
      this.name = name;
      this.property = property;
      this.help = help;
    }

    String envVar() {
      return "HOURGLASS_" + name.replace('-', '_').toUpperCase(Locale.ROOT);
    }

    static Flag named(String name) {
      for (Flag f : values()) {
        if (f.name.equals(name)) {
          return f;
        }
      }
      throw new IllegalArgumentException(name + ": unknown option --" + name + " (see --help)");
    }
  }

  /** Copies the map. */
  public ServerArguments {
    values = Map.copyOf(values);
  }

  /**
   * Reads the flags, then the environment for the settings the flags did not give.
   *
   * @param args the command line
   * @param env the environment, usually {@code System.getenv()}
   * @return the arguments
   * @throws IllegalArgumentException naming the option when a flag is unknown, lacks a value or is malformed
   */
  public static ServerArguments parse(String[] args, Map<String, String> env) {
    Map<String, String> values = new LinkedHashMap<>();
    boolean help = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        help = true;
        continue;
      }
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new IllegalArgumentException(arg + ": unexpected argument (see --help)");
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
      Flag flag = Flag.named(name);
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException(name + ": --" + name + " needs a value");
      }
      values.put(flag.name, value);
    }
    for (Flag flag : Flag.values()) {
      String fromEnv = env.get(flag.envVar());
      if (!values.containsKey(flag.name) && fromEnv != null && !fromEnv.isBlank()) {
        values.put(flag.name, fromEnv);
      }
    }
    checkInteger(values, Flag.PORT, 0, 65535);
    checkInteger(values, Flag.SHARDS, 1, 1024);
    // The builder's checks name the field: "namespace: ...", "redisUri: ...".
    if (values.containsKey(Flag.NAMESPACE.name)) {
      Hourglass.builder().namespace(values.get(Flag.NAMESPACE.name).trim());
    }
    if (values.containsKey(Flag.REDIS.name)) {
      Hourglass.builder().redisUri(values.get(Flag.REDIS.name).trim());
    }
    return new ServerArguments(help, values);
  }

  private static void checkInteger(Map<String, String> values, Flag flag, int min, int max) {
    String text = values.get(flag.name);
    if (text == null) {
      return;
    }
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= min && n <= max) {
        return;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new IllegalArgumentException(flag.name + ": must be an integer from " + min + " to " + max + ", got '"
        + text + "'");
  }

  /** @return the settings as Spring command-line arguments ({@code --server.port=8080}, ...) */
  public String[] toSpringArgs() {
    List<String> out = new ArrayList<>();
    for (Flag flag : Flag.values()) {
      String value = values.get(flag.name);
      if (value != null) {
        out.add("--" + flag.property + "=" + value.trim());
      }
    }
    return out.toArray(String[]::new);
  }

  /** @return the usage text of {@code --help} */
  public static String usage() {
    StringBuilder sb = new StringBuilder("Usage: java -jar hourglass-server.jar [options]\n\n"
        + "Hourglass: a delay queue on Redis, over HTTP. Options (each also read from its environment variable):\n");
    for (Flag flag : Flag.values()) {
      sb.append(String.format("  --%-17s %-21s %s%n", flag.name + " <value>", flag.envVar(), flag.help));
    }
    return sb.append(String.format("  --%-17s %-21s %s%n", "help", "", "print this help and exit")).toString();
  }
}
