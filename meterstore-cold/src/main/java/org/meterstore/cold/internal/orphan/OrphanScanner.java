package org.meterstore.cold.internal.orphan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.orphan.OrphanReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds files under a table's location that nothing retained references, inside this JVM: the
 * FileIO's prefix listing first, then the references of the freshly re-read table — every retained
 * snapshot's manifest list, manifests and live data and delete files, the current and previous
 * metadata files, and statistics files. Listing before reading references means a file committed in
 * between is seen as referenced; the minimum age protects files written by a commit still in
 * flight. Locations are compared without their scheme ({@code file:/x} and {@code file:///x} are
 * the same file).
 */
public final class OrphanScanner {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanScanner.class);

  private OrphanScanner() {}

  /** Scans, and deletes unless {@code dryRun}. */
  public static OrphanReport scan(
      TableAccess access, Instant now, Duration minAge, boolean dryRun) {
    Table table = access.load();
    FileIO io = table.io();
    if (!(io instanceof SupportsPrefixOperations)) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot look for orphan files of cold table "
              + access.tableName()
              + ": its FileIO "
              + io.getClass().getName()
              + " cannot list a prefix");
    }
    Instant olderThan = now.minus(minAge);
    String prefix = table.location().endsWith("/") ? table.location() : table.location() + "/";
    List<FileInfo> listed = new ArrayList<>();
    ((SupportsPrefixOperations) io).listPrefix(prefix).forEach(listed::add);
    Set<String> referenced = references(access.load());
    List<String> orphans = new ArrayList<>();
    for (FileInfo f : listed) {
      if (!referenced.contains(normalise(f.location()))
          && f.createdAtMillis() < olderThan.toEpochMilli()) {
        orphans.add(f.location());
      }
    }
    orphans.sort(null);
    List<String> deleted = new ArrayList<>();
    if (!dryRun) {
      for (String location : orphans) {
        io.deleteFile(location);
        deleted.add(location);
      }
      LOG.info("Cold table {}: deleted {} orphan files", access.tableName(), deleted.size());
    }
    return new OrphanReport(olderThan, dryRun, orphans, deleted, listed.size(), referenced.size());
  }

  /** Every file the table's retained snapshots and metadata reference, normalised. */
  static Set<String> references(Table table) {
    FileIO io = table.io();
    Set<String> refs = new HashSet<>();
    for (Snapshot s : table.snapshots()) {
      if (s.manifestListLocation() != null) {
        refs.add(normalise(s.manifestListLocation()));
      }
      for (ManifestFile m : s.allManifests(io)) {
        if (refs.add(normalise(m.path()))) {
          addContentFiles(table, io, m, refs);
        }
      }
    }
    if (table instanceof HasTableOperations) {
      TableMetadata meta = ((HasTableOperations) table).operations().current();
      refs.add(normalise(meta.metadataFileLocation()));
      meta.previousFiles().forEach(e -> refs.add(normalise(e.file())));
    }
    table.statisticsFiles().forEach(f -> refs.add(normalise(f.path())));
    table.partitionStatisticsFiles().forEach(f -> refs.add(normalise(f.path())));
    return refs;
  }

  private static void addContentFiles(Table table, FileIO io, ManifestFile m, Set<String> refs) {
    if (m.content() == ManifestContent.DATA) {
      ManifestFiles.readPaths(m, io, table.specs()).forEach(p -> refs.add(normalise(p)));
      return;
    }
    try (ManifestReader<DeleteFile> reader =
        ManifestFiles.readDeleteManifest(m, io, table.specs())) {
      reader.forEach(f -> refs.add(normalise(f.location())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code location} without scheme and leading slashes. */
  static String normalise(String location) {
    String s = location.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*:", "");
    int i = 0;
    while (i < s.length() && s.charAt(i) == '/') {
      i++;
    }
    return s.substring(i);
  }
}
