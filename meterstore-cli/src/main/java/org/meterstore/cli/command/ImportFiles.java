package org.meterstore.cli.command;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The paths an {@code import} names: each argument is a file or directory as it stands, or, when no
 * such path exists and it holds a glob character ({@code * ? [ {}), the files its last part matches
 * in its directory, by name. A shell expands an unquoted glob itself; a quoted one (or one on a
 * system whose shell does not) is expanded here, so a pattern that matches nothing is an error and
 * not a file named {@code *.csv}.
 */
final class ImportFiles {
  private ImportFiles() {}

  /** The paths of {@code args}, in their order; a glob's matches in name order. */
  static List<Path> expand(List<String> args) {
    List<Path> out = new ArrayList<>();
    for (String arg : args) {
      Path path = Path.of(arg);
      if (Files.exists(path) || !isGlob(arg)) {
        if (!Files.exists(path)) {
          throw MeterStoreException.invalid("import file", arg, "no such file or directory");
        }
        out.add(path);
        continue;
      }
      out.addAll(matches(arg, path));
    }
    return out;
  }

  private static boolean isGlob(String arg) {
    return arg.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
  }

  private static List<Path> matches(String arg, Path pattern) {
    Path dir = pattern.getParent() == null ? Path.of("") : pattern.getParent();
    if (isGlob(dir.toString())) {
      throw MeterStoreException.invalid(
          "import file", arg, "a glob may only match file names, not directories");
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern.getFileName());
    List<Path> found = new ArrayList<>();
    try (Stream<Path> list = Files.list(dir.toString().isEmpty() ? Path.of(".") : dir)) {
      list.filter(p -> matcher.matches(p.getFileName()))
          .filter(Files::isRegularFile)
          .sorted()
          .forEach(p -> found.add(dir.resolve(p.getFileName())));
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot import " + arg + ": cannot list " + dir + " (" + e + ")", e);
    }
    if (found.isEmpty()) {
      throw MeterStoreException.invalid("import file", arg, "the pattern matches no file");
    }
    return found;
  }
}
