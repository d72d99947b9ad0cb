package org.meterstore.cli.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Prints a {@link Document} as one pretty-printed JSON object. Integers and floating-point numbers
 * are JSON numbers; decimals and big integers are strings (no reader loses a digit to a double);
 * instants are ISO-8601 UTC strings, dates ISO-8601 strings; {@link Rows} are arrays of objects.
 */
public final class JsonRenderer {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonRenderer() {}

  /** Writes {@code document} and a line break to {@code out}. */
  public static void render(Document document, Writer out) {
    try {
      JsonGenerator g = FACTORY.createGenerator(out);
      g.useDefaultPrettyPrinter();
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      writeDocument(g, document);
      g.flush();
      out.write(System.lineSeparator());
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeDocument(JsonGenerator g, Document document) throws IOException {
    g.writeStartObject();
    for (Map.Entry<String, Object> e : document.fields().entrySet()) {
      if (document.isTableOnly(e.getKey())) {
        continue;
      }
      g.writeFieldName(e.getKey());
      write(g, e.getValue());
    }
    g.writeEndObject();
  }

  private static void write(JsonGenerator g, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      g.writeNumber(((Number) value).intValue());
    } else if (value instanceof Long l) {
      g.writeNumber(l);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isFinite(d)) {
        g.writeNumber(d);
      } else {
        g.writeString(Double.toString(d));
      }
    } else if (value instanceof Rows rows) {
      writeRows(g, rows);
    } else if (value instanceof Document d) {
      writeDocument(g, d);
    } else if (value instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        write(g, e.getValue());
      }
      g.writeEndObject();
    } else if (value instanceof Collection<?> c) {
      g.writeStartArray();
      for (Object o : c) {
        write(g, o);
      }
      g.writeEndArray();
    } else {
      g.writeString(Values.text(value));
    }
  }

  private static void writeRows(JsonGenerator g, Rows rows) throws IOException {
    g.writeStartArray();
    List<String> columns = rows.columns();
    for (List<Object> row : rows.rows()) {
      g.writeStartObject();
      for (int i = 0; i < columns.size(); i++) {
        g.writeFieldName(columns.get(i));
        write(g, row.get(i));
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }
}
