package org.meterstore.cli.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The commented {@code meterstore.toml} that {@code init} writes and {@code demo} runs on: the
 * embedded default under a data directory and two tables, {@code strom} (electricity) and {@code
 * gas}.
 */
final class ConfigTemplate {
  private ConfigTemplate() {}

  /**
   * The file's text.
   *
   * @param dataDir the {@code data_dir} value, as written (forward slashes)
   * @param settlementLag both tables' settlement lag
   */
  static String render(String dataDir, Duration settlementLag) {
    String template;
    try (InputStream in = ConfigTemplate.class.getResourceAsStream("meterstore.toml.template")) {
      if (in == null) {
        throw new IllegalStateException("meterstore.toml.template is missing from the jar");
      }
      template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return template
        .replace("{{data_dir}}", tomlString(dataDir))
        .replace("{{settlement_lag}}", days(settlementLag));
  }

  private static String days(Duration d) {
    if (d.toSeconds() % 86_400 == 0) {
      return d.toDays() + "d";
    }
    return d.toString();
  }

  private static String tomlString(String text) {
    return text.replace("\\", "/").replace("\"", "\\\"");
  }
}
