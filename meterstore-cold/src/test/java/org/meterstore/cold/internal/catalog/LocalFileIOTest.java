package org.meterstore.cold.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFileIOTest {
  @TempDir Path dir;

  private final LocalFileIO io = new LocalFileIO();

  LocalFileIOTest() {
    io.initialize(Map.of());
  }

  private String location(String below) {
    return dir.toUri() + below; // file:///…/ as MeterStores builds a warehouse location
  }

  @Test
  void createWritesOnceCountsItsBytesAndMakesItsDirectories() throws IOException {
    String where = location("t/data/from_month=2026-01/a.parquet");
    try (PositionOutputStream out = io.newOutputFile(where).create()) {
      out.write(7);
      out.write("abc".getBytes(StandardCharsets.UTF_8));
      assertThat(out.getPos()).isEqualTo(4);
    }
    assertThat(Files.readAllBytes(dir.resolve("t/data/from_month=2026-01/a.parquet")))
        .containsExactly(7, 'a', 'b', 'c');
    assertThat(io.newInputFile(where).getLength()).isEqualTo(4);
    assertThatThrownBy(() -> io.newOutputFile(where).create())
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining(where);
    try (PositionOutputStream out = io.newOutputFile(where).createOrOverwrite()) {
      out.write(1);
    }
    assertThat(Files.readAllBytes(dir.resolve("t/data/from_month=2026-01/a.parquet")))
        .containsExactly(1);
  }

  @Test
  void aMissingFileIsNotFound() {
    InputFile missing = io.newInputFile(location("nothing.json"));
    assertThat(missing.exists()).isFalse();
    assertThatThrownBy(missing::getLength).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(missing::newStream)
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("nothing.json");
  }

  @Test
  void seeksAndReadsAnywhereAsTheFileHoldsIt() throws IOException {
    byte[] content = new byte[100_000];
    Random random = new Random(5);
    random.nextBytes(content);
    Path file = dir.resolve("blob");
    Files.write(file, content);
    try (SeekableInputStream in = io.newInputFile(file.toString()).newStream()) {
      for (int i = 0; i < 2_000; i++) {
        int at = random.nextInt(content.length + 10);
        in.seek(at);
        assertThat(in.getPos()).isEqualTo(at);
        if (random.nextBoolean()) {
          int b = in.read();
          assertThat(b).isEqualTo(at < content.length ? content[at] & 0xff : -1);
        } else {
          byte[] buf = new byte[1 + random.nextInt(random.nextBoolean() ? 100 : 20_000)];
          int n = in.read(buf, 0, buf.length);
          if (at >= content.length) {
            assertThat(n).isEqualTo(-1);
          } else {
            assertThat(n).isPositive().isLessThanOrEqualTo(buf.length);
            for (int k = 0; k < n; k++) {
              assertThat(buf[k]).isEqualTo(content[at + k]);
            }
            assertThat(in.getPos()).isEqualTo(at + n);
          }
        }
      }
      in.seek(0);
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
  }

  @Test
  void filesWrittenByEitherReadWithTheOther() throws IOException {
    HadoopFileIO hadoop = new HadoopFileIO(new org.apache.hadoop.conf.Configuration());
    String ours = location("x y/ours.avro"); // a space: file:///…/x%20y/ours.avro
    String theirs = location("x y/theirs.avro");
    try (OutputStream out = io.newOutputFile(ours).create()) {
      out.write("written by LocalFileIO".getBytes(StandardCharsets.UTF_8));
    }
    try (OutputStream out = hadoop.newOutputFile(theirs).create()) {
      out.write("written by HadoopFileIO".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(Files.exists(dir.resolve("x y/ours.avro"))).isTrue();
    try (InputStream in = hadoop.newInputFile(ours).newStream()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("written by LocalFileIO");
    }
    try (InputStream in = io.newInputFile(theirs).newStream()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("written by HadoopFileIO");
    }
    // Hadoop's checksum file belongs to its file: not listed while the file lives, deleted with it
    assertThat(Files.exists(dir.resolve("x y/.theirs.avro.crc"))).isTrue();
    assertThat(locations(location("x y/"))).containsExactlyInAnyOrder(ours, theirs);
    io.deleteFile(theirs);
    assertThat(dir.resolve("x y")).isDirectoryNotContaining("glob:**theirs*");
  }

  @Test
  void listsAndDeletesByPrefixNamingFilesAsThePrefixDoes() throws IOException {
    String table = location("db/t");
    for (String f : List.of("metadata/1.json", "data/m=1/a.parquet", "data/m=2/b.parquet")) {
      try (OutputStream out = io.newOutputFile(table + "/" + f).create()) {
        out.write(1);
      }
    }
    Files.write(dir.resolve("db/t/data/m=2/.gone.parquet.crc"), new byte[] {1}); // its file is gone
    Files.write(dir.resolve("db/other"), new byte[] {1});
    List<FileInfo> listed = new ArrayList<>();
    io.listPrefix(table + "/").forEach(listed::add);
    assertThat(listed)
        .extracting(FileInfo::location)
        .containsExactlyInAnyOrder(
            table + "/metadata/1.json",
            table + "/data/m=1/a.parquet",
            table + "/data/m=2/b.parquet",
            table + "/data/m=2/.gone.parquet.crc");
    assertThat(listed).allSatisfy(f -> assertThat(f.size()).isEqualTo(1));
    assertThat(io.listPrefix(location("absent/"))).isEmpty();

    io.deleteFiles(List.of(table + "/data/m=1/a.parquet", table + "/data/m=1/never.parquet"));
    assertThat(Files.exists(dir.resolve("db/t/data/m=1/a.parquet"))).isFalse();
    io.deletePrefix(table + "/");
    assertThat(Files.exists(dir.resolve("db/t"))).isFalse();
    assertThat(Files.exists(dir.resolve("db/other"))).isTrue();
  }

  @Test
  void knowsALocalLocation() {
    assertThat(LocalFileIO.isLocal("file:/tmp/w")).isTrue();
    assertThat(LocalFileIO.isLocal("file:///tmp/w")).isTrue();
    assertThat(LocalFileIO.isLocal("/tmp/w")).isTrue();
    assertThat(LocalFileIO.isLocal("s3://bucket/w")).isFalse();
    assertThat(LocalFileIO.isLocal(null)).isFalse();
    assertThat(LocalFileIO.path("file:///tmp/a%20b/%C3%A4%")).isEqualTo(Path.of("/tmp/a b/ä%"));
    assertThatThrownBy(() -> io.newInputFile("relative/x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private List<String> locations(String prefix) {
    List<String> out = new ArrayList<>();
    io.listPrefix(prefix).forEach(f -> out.add(f.location()));
    return out;
  }
}
