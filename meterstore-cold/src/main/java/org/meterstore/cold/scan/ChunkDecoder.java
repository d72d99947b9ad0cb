package org.meterstore.cold.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;

/**
 * Decodes one column chunk (one column of one row group) page by page into a vector, a batch at a
 * time. Subclasses decode the values of one physical type; this class walks the pages, the
 * definition levels and the dictionary. The vector's arrays are reused from batch to batch, which
 * is why a batch is valid only until the next one is read.
 */
abstract class ChunkDecoder {
  final ColumnDescriptor descriptor;
  final int maxDefinition;
  private PageReader pages;
  private Levels levels = Levels.NONE;
  private int left;
  private long row;
  private long decoded;

  /** The current page's values; a dictionary-based reader when {@link #dictionaryPage}. */
  ValuesReader values;

  boolean dictionaryPage;

  /** The current page's dictionary ids when {@link #dictionaryPage}. */
  final DictionaryIds ids = new DictionaryIds();

  boolean[] nulls;
  private boolean anyNull;

  /** The current row group's chunk dictionary, or null. */
  private Dictionary dictionary;

  ChunkDecoder(ColumnDescriptor descriptor) {
    this.descriptor = descriptor;
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
  }

  /** Starts a new row group's chunk; reads its dictionary page if there is one. */
  final void start(PageReader chunk) {
    start(chunk, null, 0);
  }

  /**
   * Starts a new row group's chunk, which starts at byte {@code chunkStart} of the file; a numeric
   * dictionary is decoded once per file and chunk and kept in {@code cached} (null: none kept).
   */
  final void start(PageReader chunk, CachedFile cached, long chunkStart) {
    this.pages = chunk;
    this.left = 0;
    this.row = 0;
    try {
      dictionary =
          cached != null && numeric()
              ? cached.dictionary(chunkStart, () -> decode(chunk))
              : dictionaryOf(chunk);
      startRowGroup(dictionary, cached, chunkStart);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private boolean numeric() {
    return switch (descriptor.getPrimitiveType().getPrimitiveTypeName()) {
      case INT32, INT64, FLOAT, DOUBLE -> true;
      default -> false;
    };
  }

  private Dictionary dictionaryOf(PageReader chunk) throws IOException {
    DictionaryPage page = chunk.readDictionaryPage();
    return page == null ? null : page.getEncoding().initDictionary(descriptor, page);
  }

  private CachedFile.Decoded decode(PageReader chunk) throws IOException {
    DictionaryPage page = chunk.readDictionaryPage();
    if (page == null) {
      return null;
    }
    Dictionary d = page.getEncoding().initDictionary(descriptor, page);
    return new CachedFile.Decoded(d, 2L * page.getUncompressedSize());
  }

  /** A new row group begins; {@code dictionary} is its chunk's dictionary or null. */
  abstract void startRowGroup(Dictionary dictionary);

  /**
   * A new row group begins, of the chunk starting at {@code chunkStart} of the file {@code cached}
   * keeps (null: nothing kept); decoders that keep decoded values per chunk override it.
   */
  void startRowGroup(Dictionary dictionary, CachedFile cached, long chunkStart) {
    startRowGroup(dictionary);
  }

  /** Makes sure the vector's arrays hold {@code rows} rows. */
  abstract void ensure(int rows);

  /** Decodes the present value of row {@code row} from {@link #values}. */
  abstract void decode(int row);

  /** The vector of the rows decoded by the last {@link #read}. */
  abstract ColumnVector vector(boolean withNulls);

  /**
   * Decodes the rows of {@code spans}' current batch, skipping the values of the rows between its
   * runs (and, from one batch to the next, of the rows the row group's spans leave out).
   */
  final ColumnVector read(RowSpans spans) {
    int rows = spans.rows();
    ensure(rows);
    if (maxDefinition > 0 && (nulls == null || nulls.length < rows)) {
      nulls = new boolean[Math.max(rows, 16)];
    }
    anyNull = false;
    int out = 0;
    for (int s = 0; s < spans.count(); s++) {
      seek(spans.start(s));
      out = decodeRows(out, spans.length(s));
    }
    return vector(anyNull);
  }

  /** Decodes {@code count} rows into the vector from position {@code out}; the next position. */
  private int decodeRows(int out, int count) {
    int end = out + count;
    while (out < end) {
      if (left == 0) {
        nextPage();
      }
      int n = Math.min(left, end - out);
      if (maxDefinition == 0) {
        for (int stop = out + n; out < stop; out++) {
          decode(out);
        }
      } else {
        for (int stop = out + n; out < stop; out++) {
          boolean isNull = levels.next() < maxDefinition;
          nulls[out] = isNull;
          if (isNull) {
            anyNull = true;
          } else {
            decode(out);
          }
        }
      }
      left -= n;
      row += n;
    }
    return out;
  }

  /**
   * Moves to row {@code target} of the row group: the rest of a page that ends before it is
   * dropped, and the values before it in the page that holds it are skipped. Pages come in row
   * order; a filtered chunk leaves out the pages that hold none of the spans' rows.
   */
  private void seek(long target) {
    while (true) {
      if (left == 0) {
        nextPage();
      }
      if (target < row) {
        throw new IllegalStateException(
            "Parquet column chunk " + descriptor + " has no page for row " + target);
      }
      if (target < row + left) {
        skip((int) (target - row));
        return;
      }
      row += left;
      left = 0;
    }
  }

  /** Skips the next {@code n} rows of the current page. */
  private void skip(int n) {
    if (n == 0) {
      return;
    }
    int present = n;
    if (maxDefinition > 0) {
      present = 0;
      for (int i = 0; i < n; i++) {
        if (levels.next() == maxDefinition) {
          present++;
        }
      }
    }
    skipValues(present);
    left -= n;
    row += n;
  }

  /** Skips the next {@code n} present values of the current page. */
  void skipValues(int n) {
    if (dictionaryPage) {
      ids.skip(n);
    } else {
      values.skip(n);
    }
  }

  /** The rows of the pages this decoder has read, over every row group. */
  final long rowsDecoded() {
    return decoded;
  }

  private void nextPage() {
    DataPage page = pages.readPage();
    if (page == null) {
      throw new IllegalStateException("Parquet column chunk " + descriptor + " ended early");
    }
    try {
      int count = page.getValueCount();
      // without an offset index the pages follow each other; flat columns: one value per row
      row = page.getFirstRowIndex().orElse(row);
      decoded += count;
      if (page instanceof DataPageV1 v1) {
        ByteBufferInputStream in = v1.getBytes().toInputStream();
        v1.getRlEncoding()
            .getValuesReader(descriptor, ValuesType.REPETITION_LEVEL)
            .initFromPage(count, in);
        if (maxDefinition > 0) {
          ValuesReader dl =
              v1.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
          dl.initFromPage(count, in);
          levels = Levels.of(dl);
        } else {
          v1.getDlEncoding()
              .getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL)
              .initFromPage(count, in);
        }
        initValues(v1.getValueEncoding(), count, in);
      } else {
        DataPageV2 v2 = (DataPageV2) page;
        levels =
            maxDefinition > 0 ? Levels.rle(maxDefinition, v2.getDefinitionLevels()) : Levels.NONE;
        initValues(v2.getDataEncoding(), count, v2.getData().toInputStream());
      }
      left = count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void initValues(Encoding encoding, int count, ByteBufferInputStream in)
      throws IOException {
    dictionaryPage = encoding.usesDictionary();
    if (dictionaryPage) {
      values = null;
      ids.decode(in, count);
      return;
    }
    if (initPlain(encoding, in)) {
      values = null;
      return;
    }
    values =
        dictionaryPage
            ? encoding.getDictionaryBasedValuesReader(descriptor, ValuesType.VALUES, dictionary())
            : encoding.getValuesReader(descriptor, ValuesType.VALUES);
    values.initFromPage(count, in);
  }

  /**
   * Lets a subclass decode a page of {@code encoding} from {@code in} itself (then {@link #values}
   * is null for that page); false to use Parquet's values reader.
   */
  boolean initPlain(Encoding encoding, ByteBufferInputStream in) throws IOException {
    return false;
  }

  /** The current chunk's dictionary; only called for dictionary-encoded pages. */
  final Dictionary dictionary() {
    return dictionary;
  }

  final boolean[] nullsOrNull(boolean withNulls) {
    return withNulls ? nulls : null;
  }
}
