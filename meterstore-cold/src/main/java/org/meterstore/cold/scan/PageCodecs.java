package org.meterstore.cold.scan;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.parquet.ParquetCodecFactory;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The page decompressors of one reader. ZSTD pages (MeterStore's codec) are decompressed in one
 * call each through one zstd-jni context the reader keeps: Parquet's own ZSTD codec makes a
 * decompression stream, with its native context and buffers, for every page, which costs tens of
 * microseconds a page and made full scans of files with small pages (ADR 0022) several times
 * slower. Other codecs go through Iceberg's codec factory. Not thread-safe, like the reader.
 */
final class PageCodecs implements CompressionCodecFactory {
  private static final Configuration CONF = new Configuration(false);

  private final ParquetCodecFactory others = new ParquetCodecFactory(CONF, 0);
  private ZstdPages zstd;

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    throw new UnsupportedOperationException("a reader compresses nothing");
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    if (codec != CompressionCodecName.ZSTD) {
      return others.getDecompressor(codec);
    }
    if (zstd == null) {
      zstd = new ZstdPages();
    }
    return zstd;
  }

  @Override
  public void release() {
    try {
      if (zstd != null) {
        zstd.context.close();
        zstd = null;
      }
    } finally {
      others.release();
    }
  }

  /** Whole ZSTD pages, decompressed into a new heap array each (pages outlive the next call). */
  private static final class ZstdPages implements BytesInputDecompressor {
    final ZstdDecompressCtx context = new ZstdDecompressCtx();

    @Override
    public BytesInput decompress(BytesInput bytes, int decompressedSize) throws IOException {
      return BytesInput.from(
          decompress(bytes.toInputStream().slice((int) bytes.size()), decompressedSize));
    }

    @Override
    public void decompress(
        ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
        throws IOException {
      ByteBuffer src = input.duplicate();
      src.limit(src.position() + compressedSize);
      input.position(input.position() + compressedSize);
      output.put(decompress(src, decompressedSize));
    }

    private byte[] decompress(ByteBuffer src, int decompressedSize) throws IOException {
      byte[] dst = new byte[decompressedSize];
      int n;
      if (src.hasArray()) {
        int from = src.arrayOffset() + src.position();
        n = context.decompressByteArray(dst, 0, dst.length, src.array(), from, src.remaining());
      } else {
        byte[] copy = new byte[src.remaining()];
        src.get(copy);
        n = context.decompressByteArray(dst, 0, dst.length, copy, 0, copy.length);
      }
      if (n != decompressedSize) {
        throw new IOException(
            "Cannot decompress a ZSTD page: " + n + " bytes, expected " + decompressedSize);
      }
      return dst;
    }

    @Override
    public void release() {
      // the context lives as long as the reader: PageCodecs.release() closes it
    }
  }
}
