package org.meterstore.config;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${NAME}} in a string value is replaced by the environment variable {@code NAME}; {@code
 * $${} writes a literal {@code ${}. A variable that is not set is an error naming the variable and
 * the key (never a fallback to an empty string, which would turn a missing password into a login
 * attempt without one).
 */
final class Interpolation {
  private static final Pattern VARIABLE =
      Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private Interpolation() {}

  static String apply(String text, String path, Map<String, String> env) {
    if (text.indexOf('$') < 0) {
      return text;
    }
    Matcher m = VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) == null) {
        replacement = "${";
      } else {
        replacement = env.get(m.group(1));
        if (replacement == null) {
          throw ConfigErrors.config(
              "Invalid "
                  + path
                  + ": environment variable "
                  + m.group(1)
                  + " is not set (it is referenced as ${"
                  + m.group(1)
                  + "})");
        }
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    if (VARIABLE.matcher(text).replaceAll("").contains("${")) {
      throw ConfigErrors.config(
          "Invalid " + path + ": an unfinished ${…} (write ${NAME} with a letter or _ first)");
    }
    return out.toString();
  }
}
