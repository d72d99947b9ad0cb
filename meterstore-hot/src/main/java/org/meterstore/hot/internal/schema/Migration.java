package org.meterstore.hot.internal.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One versioned SQL script from {@value #FOLDER}, named {@code V<NNN>__<description>.sql}.
 *
 * @param version the number {@code NNN}
 * @param description the words after {@code __}, underscores as spaces
 * @param script the SQL text with the {@code ${schema}} placeholder
 * @param checksum the SHA-256 of the script, recorded so that an edited script is detected
 */
public record Migration(int version, String description, String script, String checksum) {
  /** The resource folder of the scripts. */
  public static final String FOLDER = "org/meterstore/hot/migrations/";

  private static final Pattern NAME = Pattern.compile("V(\\d{3})__([a-z0-9_]+)\\.sql");

  /** Loads {@code fileName} from {@link #FOLDER} on the class path. */
  public static Migration load(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      throw new IllegalStateException("Migration name " + fileName + " is not V<NNN>__<words>.sql");
    }
    String script = read(FOLDER + fileName);
    return new Migration(
        Integer.parseInt(m.group(1)), m.group(2).replace('_', ' '), script, sha256(script));
  }

  /** The script with {@code ${schema}} replaced by the quoted schema name. */
  public String sql(String quotedSchema) {
    return script.replace("${schema}", quotedSchema);
  }

  private static String read(String resource) {
    try (InputStream in = Migration.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "Migration " + resource + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot read migration " + resource, e);
    }
  }

  private static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
