package org.meterstore.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The one command: {@code Bench quick|full [ingest|fleet|archival|query|latency|import|point|serve
 * …]} runs the profile's benchmarks (all, or the named ones) on a fresh embedded PostgreSQL and
 * warehouse under {@code target/bench}, prints each result and writes {@code
 * target/bench/results.json} and {@code results.md}. A missed target is printed and recorded as
 * {@code met: false}; a wrong answer (MeterStore's rows differ from the baseline's) fails its line
 * and makes the run exit with status 1 after the results are written. System properties change
 * sizes and the archival and point benchmarks' options ({@link Profile#withOverrides}, {@link
 * ArchivalOptions}, {@link PointOptions}); they are read once, here.
 */
public final class Bench {
  private static final List<String> ALL =
      List.of(
          "ingest",
          "fleet",
          "archival",
          "query",
          "storage",
          "latency",
          "import",
          "point",
          "serve",
          "corrections");

  private Bench() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) throws Exception {
    Properties properties = System.getProperties();
    Profile profile = Profile.named(args.length > 0 ? args[0] : "quick").withOverrides(properties);
    ArchivalOptions archival = ArchivalOptions.from(properties);
    PointOptions point = PointOptions.of(profile, properties);
    Set<String> only = Set.copyOf(args.length > 1 ? List.of(args).subList(1, args.length) : ALL);
    Path out = Path.of(System.getProperty("bench.dir", "target/bench"));
    Path warehouse = out.resolve("warehouse");
    deleteTree(warehouse);
    Files.createDirectories(warehouse);
    LoadSampler load = new LoadSampler();
    load.start();
    long started = System.nanoTime();
    List<Result> results = new ArrayList<>();
    try (Deployment d = new Deployment(warehouse.toAbsolutePath())) {
      for (String name : ALL) {
        if (!only.contains(name)) {
          continue;
        }
        System.out.println("== " + name + " (" + profile.name() + ")");
        List<Result> these =
            switch (name) {
              case "ingest" -> IngestBench.run(d, profile);
              case "fleet" -> FleetBench.run(d, profile);
              case "archival" -> ArchivalBench.run(d, profile, archival);
              case "query" -> QueryBench.run(d, profile);
              case "import" -> ImportBench.run(d, profile);
              case "storage" -> StorageBench.run(d, profile);
              case "point" -> PointBench.run(d, profile, point);
              case "serve" -> ServeBench.run(d, profile, point);
              case "corrections" -> CorrectionBench.run(d, profile);
              default -> LatencyBench.run(d, profile);
            };
        these.forEach(Bench::print);
        results.addAll(these);
      }
    } finally {
      load.interrupt();
    }
    double minutes = (System.nanoTime() - started) / 60e9;
    String header = header(profile, minutes, load) + overrides(properties);
    ResultsWriter.write(out, results, header);
    System.out.println();
    System.out.println(header);
    System.out.println(ResultsWriter.markdown(results));
    System.out.println(
        "written: " + out.resolve("results.json") + ", " + out.resolve("results.md"));
    List<String> wrong = results.stream().filter(Result::wrongAnswer).map(Result::name).toList();
    if (!wrong.isEmpty()) {
      System.err.println("WRONG ANSWERS (MeterStore and its baseline differ): " + wrong);
      System.exit(1);
    }
  }

  private static void print(Result r) {
    System.out.printf(
        Locale.ROOT,
        "%-62s MeterStore %s %s | %s %s | ratio %s | target %s: %s%n   %s%n",
        r.name(),
        ResultsWriter.number(r.meterstore()),
        r.metric(),
        r.baselineName(),
        ResultsWriter.number(r.baseline()),
        ResultsWriter.number(r.ratio()),
        r.target() == null ? "none" : r.target(),
        r.wrongAnswer() ? "WRONG ANSWER" : r.met() == null ? "-" : r.met() ? "met" : "NOT MET",
        r.note());
  }

  private static String header(Profile p, double minutes, LoadSampler load) {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    long ram =
        os instanceof com.sun.management.OperatingSystemMXBean sun
            ? sun.getTotalMemorySize() >> 30
            : -1;
    return String.format(
        Locale.ROOT,
        "# MeterStore benchmarks, profile `%s`%n%nRun %s, %.1f min. Machine: %d CPUs, %d GiB RAM,"
            + " %s %s (%s), JVM max heap %d MiB; load average during the run: mean %.1f, max %.1f."
            + " PostgreSQL: embedded 17.11 (zonky), one server for every side.",
        p.name(),
        Instant.now(),
        minutes,
        os.getAvailableProcessors(),
        ram,
        System.getProperty("java.vm.name"),
        System.getProperty("java.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.arch"),
        Runtime.getRuntime().maxMemory() >> 20,
        load.mean(),
        load.max());
  }

  /** The {@code bench.*} options set for this run (but the output directory), or nothing. */
  private static String overrides(Properties properties) {
    List<String> set =
        properties.stringPropertyNames().stream()
            .filter(k -> k.startsWith("bench.") && !k.equals("bench.dir"))
            .sorted()
            .map(k -> "`-D" + k + "=" + properties.getProperty(k) + "`")
            .toList();
    return set.isEmpty() ? "" : " Options: " + String.join(" ", set) + ".";
  }

  private static void deleteTree(Path dir) throws Exception {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Samples the system load average every second. */
  private static final class LoadSampler extends Thread {
    private final DoubleAdder sum = new DoubleAdder();
    private final LongAdder samples = new LongAdder();
    private volatile double max;

    LoadSampler() {
      super("bench-load-sampler");
      setDaemon(true);
    }

    @Override
    public void run() {
      OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
      while (!isInterrupted()) {
        double l = os.getSystemLoadAverage();
        if (l >= 0) {
          sum.add(l);
          samples.increment();
          max = Math.max(max, l);
        }
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    double mean() {
      return samples.sum() == 0 ? -1 : sum.sum() / samples.sum();
    }

    double max() {
      return max;
    }
  }
}
