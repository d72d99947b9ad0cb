package org.meterstore.interop;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Unpacks the parts of a {@code trino-server-<version>.tar.gz} a test needs — {@code lib/} and the
 * named plugins — and nothing else.
 *
 * <p>The tarball stores every jar once and every further copy as a <em>hard link</em> to the first
 * (often in another plugin's folder: the Iceberg plugin's Hadoop jars are links into {@code
 * plugin/delta-lake}). maven-dependency-plugin's {@code unpack} (plexus-archiver) writes such
 * entries as empty files, so the plugin fails to load ({@code NoClassDefFoundError}); this reader
 * follows the links instead. It reads the tarball twice: once to learn which link targets the
 * wanted parts need, once to write them (targets outside the wanted parts go to {@code
 * .link-targets/}). Plain ustar and GNU long names are handled; that is all the tarball uses.
 */
final class TrinoDistribution {
  private static final String COMPLETE = ".unpacked";

  private TrinoDistribution() {}

  /**
   * The server folder ({@code trino-server-<version>}) under {@code into}, unpacking {@code
   * tarball} there first unless an earlier call completed.
   */
  static Path unpack(Path tarball, Path into, List<String> plugins) throws IOException {
    Path done = into.resolve(COMPLETE);
    if (Files.exists(done)) {
      return into.resolve(Files.readString(done).trim());
    }
    Set<String> needed = new HashSet<>();
    String[] root = new String[1];
    read(
        tarball,
        (entry, in) -> {
          if (root[0] == null) {
            root[0] = entry.name().split("/")[0];
          }
          if (entry.type() == '1' && wanted(entry.name(), plugins)) {
            needed.add(entry.link());
          }
          return false;
        });
    Map<String, Path> written = new HashMap<>();
    read(
        tarball,
        (entry, in) -> {
          boolean want = wanted(entry.name(), plugins);
          switch (entry.type()) {
            case '0', '\0' -> {
              Path target = null;
              if (want) {
                target = into.resolve(entry.name());
              } else if (needed.contains(entry.name())) {
                target = into.resolve(".link-targets").resolve(entry.name());
              }
              if (target != null) {
                Files.createDirectories(target.getParent());
                try (OutputStream out = Files.newOutputStream(target)) {
                  copy(in, out, entry.size());
                }
                written.put(entry.name(), target);
                return true;
              }
            }
            case '1' -> {
              if (want) {
                Path source = written.get(entry.link());
                if (source == null) {
                  throw new IOException(entry.name() + " links to the unread " + entry.link());
                }
                Path target = into.resolve(entry.name());
                Files.createDirectories(target.getParent());
                Files.deleteIfExists(target);
                Files.createLink(target, source);
                written.put(entry.name(), target);
              }
            }
            case '5' -> {
              if (want) {
                Files.createDirectories(into.resolve(entry.name()));
              }
            }
            default -> {
              // symbolic links, devices: the wanted parts have none
            }
          }
          return false;
        });
    Files.writeString(done, root[0] + "\n");
    return into.resolve(root[0]);
  }

  private static boolean wanted(String name, List<String> plugins) {
    String[] parts = name.split("/");
    if (parts.length < 2 || parts[1].isEmpty()) {
      return false;
    }
    if (parts[1].equals("lib")) {
      return true;
    }
    return parts[1].equals("plugin") && parts.length >= 3 && plugins.contains(parts[2]);
  }

  private record Entry(String name, char type, long size, String link) {}

  @FunctionalInterface
  private interface Visitor {
    /** Whether it consumed the entry's {@code size} bytes of content from {@code in}. */
    boolean visit(Entry entry, InputStream in) throws IOException;
  }

  private static void read(Path tarball, Visitor visitor) throws IOException {
    try (InputStream in =
        new BufferedInputStream(
            new GZIPInputStream(Files.newInputStream(tarball), 1 << 16), 1 << 16)) {
      byte[] header = new byte[512];
      String longName = null;
      String longLink = null;
      long paxSize = -1;
      while (true) {
        readFully(in, header);
        if (allZero(header)) {
          return;
        }
        String name = text(header, 0, 100);
        long size = octal(header, 124, 12);
        char type = (char) header[156];
        String link = text(header, 157, 100);
        if (text(header, 257, 5).equals("ustar")) {
          String prefix = text(header, 345, 155);
          if (!prefix.isEmpty()) {
            name = prefix + "/" + name;
          }
        }
        long padded = (size + 511) / 512 * 512;
        if (type == 'L' || type == 'K') {
          byte[] data = new byte[(int) size];
          readFully(in, data);
          skip(in, padded - size);
          String value = text(data, 0, data.length);
          if (type == 'L') {
            longName = value;
          } else {
            longLink = value;
          }
          continue;
        }
        if (type == 'x' || type == 'g') {
          byte[] data = new byte[(int) size];
          readFully(in, data);
          skip(in, padded - size);
          if (type == 'x') {
            Map<String, String> pax = pax(data);
            longName = pax.getOrDefault("path", longName);
            longLink = pax.getOrDefault("linkpath", longLink);
            if (pax.containsKey("size")) {
              paxSize = Long.parseLong(pax.get("size"));
            }
          }
          continue;
        }
        if (paxSize >= 0) {
          size = paxSize;
          padded = (size + 511) / 512 * 512;
          paxSize = -1;
        }
        if (longName != null) {
          name = longName;
          longName = null;
        }
        if (longLink != null) {
          link = longLink;
          longLink = null;
        }
        long content = type == '0' || type == '\0' ? size : 0;
        boolean consumed = visitor.visit(new Entry(name, type, content, link), in);
        skip(in, (consumed ? padded - content : padded));
      }
    }
  }

  /** The records of a pax extended header: {@code "<length> <key>=<value>\n"} each. */
  private static Map<String, String> pax(byte[] data) {
    Map<String, String> out = new HashMap<>();
    int pos = 0;
    while (pos < data.length) {
      int space = pos;
      while (space < data.length && data[space] != ' ') {
        space++;
      }
      if (space == pos || space == data.length) {
        break;
      }
      int length = Integer.parseInt(new String(data, pos, space - pos, StandardCharsets.UTF_8));
      String record =
          new String(data, space + 1, length - (space - pos) - 2, StandardCharsets.UTF_8);
      int eq = record.indexOf('=');
      if (eq > 0) {
        out.put(record.substring(0, eq), record.substring(eq + 1));
      }
      pos += length;
    }
    return out;
  }

  private static void copy(InputStream in, OutputStream out, long size) throws IOException {
    byte[] buffer = new byte[1 << 16];
    long left = size;
    while (left > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new EOFException();
      }
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  private static void skip(InputStream in, long n) throws IOException {
    long left = n;
    while (left > 0) {
      long s = in.skip(left);
      if (s <= 0) {
        if (in.read() < 0) {
          throw new EOFException();
        }
        s = 1;
      }
      left -= s;
    }
  }

  private static void readFully(InputStream in, byte[] b) throws IOException {
    int off = 0;
    while (off < b.length) {
      int n = in.read(b, off, b.length - off);
      if (n < 0) {
        throw new EOFException();
      }
      off += n;
    }
  }

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  private static String text(byte[] b, int off, int len) {
    int end = off;
    while (end < off + len && b[end] != 0) {
      end++;
    }
    return new String(b, off, end - off, StandardCharsets.UTF_8);
  }

  private static long octal(byte[] b, int off, int len) {
    String s = text(b, off, len).trim();
    return s.isEmpty() ? 0 : Long.parseLong(s, 8);
  }
}
