package org.meterstore.imports;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.id.MaloId;
import org.meterstore.api.id.ObisCode;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.ReadingBuilder;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.Version;
import org.meterstore.api.reading.VersionScope;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;

/**
 * Maps one record's fields, named by a header of storage-model column names, to a stored reading.
 * Every rule is the api's: the reading is built with {@link Reading#builder()} and checked by
 * {@link TableDefinition#accept}; this class only parses text and checks that the stamps a file may
 * carry ({@code version} of 13 digits or fewer, {@code balancing_day}) agree with the ones
 * MeterStore would have given.
 *
 * <p>A field is null (missing) or text, parsed here the one way for every source; a typed source
 * (Parquet) may instead give a timestamptz column an {@code Instant}, a decimal column a {@code
 * BigDecimal} and a date column a {@code LocalDate}, which then take exactly the path their parsed
 * text would. Text columns are always {@code String}s.
 */
final class ReadingMapper {
  private static final List<StandardColumn> REQUIRED =
      List.of(
          StandardColumn.MALO_ID,
          StandardColumn.OBIS_CODE,
          StandardColumn.SPARTE,
          StandardColumn.FROM,
          StandardColumn.VALUE,
          StandardColumn.UNIT,
          StandardColumn.QUALITY,
          StandardColumn.VERSION_SCOPE);

  private final TableDefinition table;
  private final Instant now;
  private final int[] standard = new int[StandardColumn.values().length];
  private final List<String> extraNames = new ArrayList<>();
  private final List<Integer> extraIndex = new ArrayList<>();
  private final int subject;
  private final ParseCache<Commodity> commodities = new ParseCache<>(Commodity::parse);
  private final ParseCache<Unit> units = new ParseCache<>(Unit::parse);
  private final ParseCache<Quality> qualities = new ParseCache<>(Quality::parse);
  private final ParseCache<Resolution> resolutions = new ParseCache<>(Resolution::parse);
  private final ParseCache<ObisCode> obisCodes = new ParseCache<>(ObisCode::parse);
  private final ParseCache<MaloId> malos = new ParseCache<>(MaloId::parse);
  private final ParseCache<String> texts = new ParseCache<>(t -> t);
  private Instant lastRecordedAt;
  // the last balancing day seen, its bounds and its text (see balancingDay)
  private Commodity dayCommodity;
  private Instant dayStart = Instant.MAX;
  private Instant dayEnd = Instant.MIN;
  private LocalDate lastDay;
  private String dayText;
  private Version lastArrival;
  private final ParseCache<Version> operatorVersions = new ParseCache<>(Version::operator);
  private final ParseCache<VersionScope> scopes = new ParseCache<>(VersionScope::parse);
  private final ParseCache<Instant> instants = new ParseCache<>(ReadingMapper::parseInstant);

  /**
   * @throws MeterStoreException {@code INVALID_INPUT} for an unknown, repeated or missing column
   */
  ReadingMapper(TableDefinition table, String[] header, Instant now, String source) {
    this.table = table;
    this.now = now;
    java.util.Arrays.fill(standard, -1);
    Map<String, Integer> byName = new HashMap<>();
    for (int i = 0; i < header.length; i++) {
      String name = header[i] == null ? "" : header[i].trim();
      if (byName.put(name, i) != null) {
        throw invalidHeader(source, name, "each column once");
      }
    }
    for (StandardColumn c : StandardColumn.values()) {
      Integer i = byName.remove(c.columnName());
      standard[c.ordinal()] = i == null ? -1 : i;
    }
    for (ExtraColumn c : table.extraColumns()) {
      Integer i = byName.remove(c.name());
      if (i != null) {
        extraNames.add(c.name());
        extraIndex.add(i);
      }
    }
    Integer s = table.subjectColumn() == null ? null : byName.remove(table.subjectColumn());
    this.subject = s == null ? -1 : s;
    if (!byName.isEmpty()) {
      throw invalidHeader(
          source,
          String.join(", ", byName.keySet()),
          "a column of table " + table.name() + " (docs/import.md)");
    }
    for (StandardColumn c : REQUIRED) {
      if (standard[c.ordinal()] < 0) {
        throw invalidHeader(source, c.columnName(), "a required column, missing in the header");
      }
    }
  }

  private static MeterStoreException invalidHeader(String source, String column, String rule) {
    return MeterStoreException.invalid("column of " + source, column, rule);
  }

  /**
   * The reading of one record: {@code f[i]} is the field of header column {@code i} (a {@code
   * String[]} for a text source).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the rule (the caller adds the line)
   */
  StoredReading map(Object[] f) {
    ReadingBuilder b = Reading.builder();
    b.malo(malos.get(required(f, StandardColumn.MALO_ID)));
    b.melo(text(f, StandardColumn.MELO_ID));
    b.obis(obisCodes.get(required(f, StandardColumn.OBIS_CODE)));
    Commodity commodity = commodities.get(required(f, StandardColumn.SPARTE));
    b.commodity(commodity);
    Instant from = instant(f, StandardColumn.FROM);
    b.interval(from, instant(f, StandardColumn.TO));
    Object value = get(f, StandardColumn.VALUE);
    if (value instanceof BigDecimal exact) {
      b.value(exact);
    } else {
      b.value(required(f, StandardColumn.VALUE));
    }
    b.unit(units.get(required(f, StandardColumn.UNIT)));
    b.quality(qualities.get(required(f, StandardColumn.QUALITY)));
    String resolution = text(f, StandardColumn.RESOLUTION);
    if (resolution != null) {
      b.resolution(resolutions.get(resolution));
    }
    String version = digitsOf(get(f, StandardColumn.VERSION));
    boolean operator = version != null && version.length() >= 14;
    if (operator) {
      b.version(operatorVersions.get(version));
    }
    b.versionScope(scopes.get(required(f, StandardColumn.VERSION_SCOPE)));
    b.sourceKind(shared(text(f, StandardColumn.SOURCE_KIND)));
    b.provenance(text(f, StandardColumn.PROVENANCE));
    for (int i = 0; i < extraNames.size(); i++) {
      String v = (String) field(f, extraIndex.get(i));
      if (v != null) {
        b.extra(extraNames.get(i), shared(v));
      }
    }
    if (subject >= 0) {
      b.subject((String) field(f, subject));
    }
    Reading reading = b.build();
    table.accept(reading);
    if (reading.subject() != null) {
      throw MeterStoreException.invalid(
          table.subjectColumn(),
          reading.subject(),
          "empty: an import does not register subject references (write them with append)");
    }
    Instant recordedAt = instant(f, StandardColumn.RECORDED_AT);
    recordedAt = recordedAt == null ? now : recordedAt;
    Version v = operator ? reading.version() : arrival(recordedAt);
    if (version != null && !operator && !new BigInteger(digits(version)).equals(v.value())) {
      throw MeterStoreException.invalid(
          "version",
          version,
          "an operator version of 14 to 20 digits, or the arrival version of recorded_at "
              + recordedAt
              + " ("
              + v
              + ")");
    }
    LocalDate day = balancingDay(from, commodity);
    Object dayField = get(f, StandardColumn.BALANCING_DAY);
    String stated = dayField == null ? null : dayField.toString();
    if (stated != null && !stated.equals(dayText)) {
      throw MeterStoreException.invalid(
          "balancing_day", stated, "the balancing day of from " + from + ": " + day);
    }
    return new StoredReading(reading, v, recordedAt, day);
  }

  /**
   * The balancing day of {@code from}, remembered with its bounds: a file's readings come day by
   * day, so most fall into the day before them and cost two comparisons instead of zone arithmetic.
   * Sets {@link #dayText}.
   */
  private LocalDate balancingDay(Instant from, Commodity commodity) {
    if (commodity != dayCommodity || from.isBefore(dayStart) || !from.isBefore(dayEnd)) {
      LocalDate day = MeteringCalendar.balancingDay(from, commodity);
      dayStart = MeteringCalendar.dayStart(day, commodity);
      dayEnd = MeteringCalendar.dayEnd(day, commodity);
      dayCommodity = commodity;
      lastDay = day;
      dayText = day.toString();
    }
    return lastDay;
  }

  private static String digits(String text) {
    if (!text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw MeterStoreException.invalid("version", text, "digits only");
    }
    return text;
  }

  /**
   * A {@code version} field as text: a decimal (a typed source's {@code decimal(20,0)}) as its
   * digits, refused when it has a fraction.
   */
  private static String digitsOf(Object field) {
    if (field instanceof BigDecimal d) {
      try {
        return d.toBigIntegerExact().toString();
      } catch (ArithmeticException e) {
        throw MeterStoreException.invalid("version", d.toPlainString(), "an integer");
      }
    }
    return (String) field;
  }

  private Object get(Object[] f, StandardColumn c) {
    return field(f, standard[c.ordinal()]);
  }

  private String text(Object[] f, StandardColumn c) {
    Object v = get(f, c);
    return v == null ? null : v.toString();
  }

  private static Object field(Object[] f, int i) {
    return i < 0 || i >= f.length ? null : f[i];
  }

  private String required(Object[] f, StandardColumn c) {
    String v = text(f, c);
    if (v == null) {
      throw MeterStoreException.invalid(c.columnName(), null, "required");
    }
    return v;
  }

  private Instant instant(Object[] f, StandardColumn c) {
    Object field = get(f, c);
    if (field == null) {
      if (c == StandardColumn.FROM) {
        throw MeterStoreException.invalid(c.columnName(), null, "required");
      }
      return null;
    }
    if (field instanceof Instant typed) {
      return typed;
    }
    String v = (String) field;
    try {
      return instants.get(v);
    } catch (DateTimeParseException e) {
      throw MeterStoreException.invalid(
          c.columnName(), v, "an ISO-8601 instant with offset, e.g. 2026-03-01T23:00:00Z");
    }
  }

  /**
   * One instance per distinct text of a column with few values (source kinds, tenants): a chunk
   * carried in memory then holds each once instead of once per reading.
   */
  private String shared(String text) {
    return text == null ? null : texts.get(text);
  }

  /** The arrival version of {@code recordedAt}; a file usually carries one or a few. */
  private Version arrival(Instant recordedAt) {
    if (!recordedAt.equals(lastRecordedAt)) {
      lastArrival = Version.arrival(recordedAt);
      lastRecordedAt = recordedAt;
    }
    return lastArrival;
  }

  private static Instant parseInstant(String text) {
    return Instant.parse(text);
  }
}
