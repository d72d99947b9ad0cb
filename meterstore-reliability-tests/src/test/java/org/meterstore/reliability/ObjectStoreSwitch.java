package org.meterstore.reliability;

import java.net.ConnectException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The power switch of one test's object store: while it is off, every read, write, listing and
 * delete that {@link OutageFileIO} passes on fails the way an unreachable store fails (a {@link
 * ConnectException}). A listener sees each operation before it runs, so a test can turn the store
 * off exactly there ("the first data file of the commit"). Switches are registered by name because
 * Iceberg builds the FileIO itself from the catalog properties. Thread-safe.
 */
final class ObjectStoreSwitch {
  /** What the FileIO is about to do. */
  enum Op {
    /** A file opened for reading (its stream's seeks and reads are {@link #READ}s). */
    OPEN,
    READ,
    WRITE,
    DELETE,
    LIST
  }

  private static final Map<String, ObjectStoreSwitch> REGISTRY = new ConcurrentHashMap<>();

  private final String name;
  private volatile boolean up = true;
  private volatile BiConsumer<Op, String> listener = (op, path) -> {};
  private final AtomicInteger refused = new AtomicInteger();

  private ObjectStoreSwitch(String name) {
    this.name = name;
  }

  /** The switch called {@code name}, made on first use. */
  static ObjectStoreSwitch named(String name) {
    return REGISTRY.computeIfAbsent(name, ObjectStoreSwitch::new);
  }

  String name() {
    return name;
  }

  void down() {
    up = false;
  }

  void up() {
    up = true;
    listener = (op, path) -> {};
  }

  boolean isUp() {
    return up;
  }

  /** Operations refused since the switch was made. */
  int refused() {
    return refused.get();
  }

  /** Calls {@code l} before every operation (until {@link #up()}); it may call {@link #down()}. */
  void onEachOperation(BiConsumer<Op, String> l) {
    listener = Objects.requireNonNull(l, "listener");
  }

  /**
   * Runs the listener, then fails when the store is off.
   *
   * @throws ConnectException the store is unreachable
   */
  void check(Op op, String path) throws ConnectException {
    listener.accept(op, path);
    if (!up) {
      refused.incrementAndGet();
      throw new ConnectException(
          "Connection refused: object store '"
              + name
              + "' is unreachable ("
              + op
              + " "
              + path
              + ")");
    }
  }
}
