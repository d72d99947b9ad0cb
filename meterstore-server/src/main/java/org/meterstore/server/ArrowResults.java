package org.meterstore.server;

import java.io.IOException;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Calendar;
import java.util.TimeZone;
import java.util.function.BooleanSupplier;
import org.apache.arrow.adapter.jdbc.ArrowVectorIterator;
import org.apache.arrow.adapter.jdbc.JdbcFieldInfo;
import org.apache.arrow.adapter.jdbc.JdbcToArrow;
import org.apache.arrow.adapter.jdbc.JdbcToArrowConfig;
import org.apache.arrow.adapter.jdbc.JdbcToArrowConfigBuilder;
import org.apache.arrow.adapter.jdbc.JdbcToArrowUtils;
import org.apache.arrow.adapter.jdbc.consumer.JdbcConsumer;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * MeterStore's result sets as Arrow record batches, through Arrow's own JDBC adapter ({@code
 * arrow-jdbc}) with two of MeterStore's types kept exact: decimals keep their declared scale (a
 * value that would need rounding is an error, never rounded), and timestamps are microseconds in
 * UTC (the adapter's default is milliseconds).
 */
final class ArrowResults {
  /** Rows per record batch. */
  static final int BATCH_ROWS = 4096;

  private static final Calendar UTC = Calendar.getInstance(TimeZone.getTimeZone("UTC"));

  private ArrowResults() {}

  /** The adapter's settings for results allocated from {@code allocator}. */
  static JdbcToArrowConfig config(BufferAllocator allocator) {
    return new JdbcToArrowConfigBuilder(allocator, (Calendar) UTC.clone())
        .setTargetBatchSize(BATCH_ROWS)
        .setReuseVectorSchemaRoot(true)
        .setBigDecimalRoundingMode(RoundingMode.UNNECESSARY)
        .setJdbcToArrowTypeConverter(ArrowResults::arrowType)
        .setJdbcConsumerGetter(ArrowResults::consumer)
        .build();
  }

  /** The Arrow schema of {@code metadata}'s columns. */
  static Schema schema(ResultSetMetaData metadata, BufferAllocator allocator) throws SQLException {
    return JdbcToArrowUtils.jdbcToArrowSchema(metadata, config(allocator));
  }

  private static boolean isTimestamp(int jdbcType) {
    return jdbcType == Types.TIMESTAMP || jdbcType == Types.TIMESTAMP_WITH_TIMEZONE;
  }

  private static ArrowType arrowType(JdbcFieldInfo field) {
    if (isTimestamp(field.getJdbcType())) {
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
    }
    return JdbcToArrowUtils.getArrowTypeFromJdbcType(field, (Calendar) UTC.clone());
  }

  private static JdbcConsumer<?> consumer(
      ArrowType type,
      int column,
      boolean nullable,
      org.apache.arrow.vector.FieldVector vector,
      JdbcToArrowConfig config) {
    if (vector instanceof TimeStampMicroTZVector micros) {
      return new MicrosConsumer(micros, column);
    }
    return JdbcToArrowUtils.getConsumer(type, column, nullable, vector, config);
  }

  /**
   * Streams {@code rs} to {@code listener} in batches, waiting while the client does not read (so a
   * slow client holds at most one batch of the server's memory) and stopping when it cancels or
   * {@code cancelled} says so. Completes the stream only when every row was sent: a stopped stream
   * is left for the caller to end with a status.
   *
   * @return the rows sent, or -1 when the stream stopped before the end
   */
  static long stream(
      ResultSet rs,
      BufferAllocator allocator,
      ServerStreamListener listener,
      BooleanSupplier cancelled,
      ServerMetrics metrics)
      throws SQLException, IOException {
    long rows = 0;
    try (ArrowVectorIterator batches =
        JdbcToArrow.sqlToArrowVectorIterator(rs, config(allocator))) {
      VectorSchemaRoot root = null;
      boolean started = false;
      while (batches.hasNext()) {
        root = batches.next();
        if (!started) {
          listener.start(root);
          started = true;
        }
        awaitReady(listener, cancelled);
        if (listener.isCancelled() || cancelled.getAsBoolean()) {
          root.close();
          return -1;
        }
        rows += root.getRowCount();
        long bytes = 0;
        for (org.apache.arrow.vector.FieldVector v : root.getFieldVectors()) {
          bytes += v.getBufferSize();
        }
        listener.putNext();
        metrics.sent(root.getRowCount(), bytes);
      }
      if (!started) {
        try (VectorSchemaRoot empty =
            VectorSchemaRoot.create(schema(rs.getMetaData(), allocator), allocator)) {
          listener.start(empty);
          listener.completed();
        }
        return 0;
      }
      if (root != null) {
        root.close();
      }
    }
    listener.completed();
    return rows;
  }

  private static void awaitReady(ServerStreamListener listener, BooleanSupplier cancelled) {
    while (!listener.isReady() && !listener.isCancelled() && !cancelled.getAsBoolean()) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** A timestamp column as microseconds since the epoch (UTC), nanoseconds truncated. */
  private static final class MicrosConsumer implements JdbcConsumer<TimeStampMicroTZVector> {
    private TimeStampMicroTZVector vector;
    private final int column;
    private int index;

    MicrosConsumer(TimeStampMicroTZVector vector, int column) {
      this.vector = vector;
      this.column = column;
    }

    @Override
    public void consume(ResultSet rs) throws SQLException {
      Timestamp t = rs.getTimestamp(column, (Calendar) UTC.clone());
      if (t == null) {
        vector.setNull(index);
      } else {
        long micros = Math.floorDiv(t.getTime(), 1000L) * 1_000_000L + t.getNanos() / 1000;
        vector.setSafe(index, micros);
      }
      index++;
    }

    @Override
    public void close() {
      vector.close();
    }

    @Override
    public void resetValueVector(TimeStampMicroTZVector newVector) {
      this.vector = newVector;
      this.index = 0;
    }
  }

  /** {@code schema} in Arrow IPC form, as Flight SQL carries schemas inside its messages. */
  static com.google.protobuf.ByteString serialize(Schema schema) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try {
      MessageSerializer.serialize(
          new WriteChannel(java.nio.channels.Channels.newChannel(out)), schema);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return com.google.protobuf.ByteString.copyFrom(out.toByteArray());
  }
}
