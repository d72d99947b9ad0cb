package org.meterstore.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP front on 127.0.0.1 before an S3-compatible server ({@link ObjectStoreServer}, MinIO or
 * s3proxy alike), which a test switches between three behaviours of a store:
 *
 * <ul>
 *   <li>{@link #pass()}: bytes flow both ways unchanged;
 *   <li>{@link #hang()}: connections are accepted and requests read to the end, but nothing is ever
 *       written back — the store that accepts and never answers; {@link #hangAt} arms the hang at
 *       the first request whose request line matches ("the first data file PUT");
 *   <li>{@link #stopReading()}: new connections are accepted and never read from, so a client's
 *       upload stops once the socket buffers are full — the store that stops reading;
 *   <li>{@link #refuse()}: the port stops listening and open connections are reset — the stopped
 *       store; {@link #pass()} listens on the same port again.
 * </ul>
 *
 * <p>A connection that has hung stays hung until the client gives up and closes it, even after
 * {@link #pass()}: what a client already sent to a hung store is never answered. Request lines are
 * recognised in the client's bytes (HTTP/1.1 sends one request at a time on a connection), which is
 * exact enough for a test: a request line inside an upload's bytes is not expected. Thread-safe.
 */
public final class ObjectStoreFront implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectStoreFront.class);
  private static final Pattern REQUEST_LINE =
      Pattern.compile("(GET|PUT|POST|HEAD|DELETE) (\\S+) HTTP/1\\.1\r\n");

  private enum Mode {
    PASS,
    HANG,
    STALL,
    REFUSE
  }

  private final InetSocketAddress backend;
  private final int port;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger hungRequests = new AtomicInteger();
  private volatile Mode mode = Mode.PASS;
  private volatile Predicate<String> trigger;
  private volatile ServerSocket listener;
  private volatile boolean closed;

  private ObjectStoreFront(URI backend) throws IOException {
    this.backend = new InetSocketAddress(backend.getHost(), backend.getPort());
    this.listener = listen(0);
    this.port = listener.getLocalPort();
    startAccepting(listener);
  }

  /** A front passing everything to the server at {@code backend} ({@code http://host:port}). */
  public static ObjectStoreFront before(URI backend) {
    try {
      return new ObjectStoreFront(Objects.requireNonNull(backend, "backend"));
    } catch (IOException e) {
      throw new IllegalStateException("Cannot open the object store front: " + e, e);
    }
  }

  /** The endpoint clients use instead of the server's. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** Passes requests on; after {@link #refuse()}, listens on the same port again. */
  public synchronized void pass() throws IOException {
    trigger = null;
    mode = Mode.PASS;
    if (listener == null) {
      listener = listen(port);
      startAccepting(listener);
    }
  }

  /** From now on every request, on a new or an open connection, is read and never answered. */
  public void hang() {
    trigger = null;
    mode = Mode.HANG;
    LOG.info("Object store front on port {} now hangs", port);
  }

  /**
   * Passes requests on until one whose request line (e.g. {@code PUT /bucket/key HTTP/1.1}) matches
   * {@code requestLine}; that request and every later one hang.
   */
  public void hangAt(Predicate<String> requestLine) {
    trigger = Objects.requireNonNull(requestLine, "requestLine");
    mode = Mode.PASS;
  }

  /**
   * From now on new connections are accepted and never read from or written to; connections open
   * before keep their behaviour.
   */
  public void stopReading() {
    trigger = null;
    mode = Mode.STALL;
    LOG.info("Object store front on port {} now stops reading new connections", port);
  }

  /** Stops listening and resets every open connection: clients are refused. */
  public synchronized void refuse() throws IOException {
    mode = Mode.REFUSE;
    trigger = null;
    if (listener != null) {
      listener.close();
      listener = null;
    }
    for (Socket s : open) {
      closeQuietly(s);
    }
    open.clear();
  }

  /** Whether the front hangs now. */
  public boolean hanging() {
    return mode == Mode.HANG;
  }

  /** How many requests were read and left unanswered so far. */
  public int hungRequests() {
    return hungRequests.get();
  }

  private static ServerSocket listen(int port) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return s;
  }

  private void startAccepting(ServerSocket server) {
    daemon("front-accept-" + port, () -> acceptLoop(server));
  }

  private void acceptLoop(ServerSocket server) {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        open.add(client);
        daemon("front-conn-" + client.getPort(), () -> serve(client));
      } catch (IOException e) {
        return; // closed by refuse() or close()
      }
    }
  }

  /** One client connection: relays it, or swallows it once it hangs. */
  private void serve(Socket client) {
    if (mode == Mode.STALL) {
      holdUnread(client);
      return;
    }
    Socket server = null;
    AtomicBoolean hung = new AtomicBoolean(mode == Mode.HANG);
    try (client) {
      InputStream in = client.getInputStream();
      if (!hung.get()) {
        server = new Socket();
        server.connect(backend, 2_000);
        open.add(server);
        Socket upstream = server;
        daemon("front-back-" + client.getPort(), () -> relayBack(upstream, client, hung));
      }
      byte[] buf = new byte[64 * 1024];
      int n;
      while ((n = in.read(buf)) >= 0) {
        int from = hangPoint(buf, n, hung);
        if (from > 0 && server != null) {
          server.getOutputStream().write(buf, 0, from);
          server.getOutputStream().flush();
        }
        if (hung.get() && server != null) {
          open.remove(server);
          closeQuietly(server);
          server = null;
        }
      }
    } catch (IOException e) {
      // the client gave up or the front was closed
    } finally {
      open.remove(client);
      if (server != null) {
        open.remove(server);
        closeQuietly(server);
      }
    }
  }

  /**
   * How many of the {@code n} bytes to pass on before the connection hangs: all of them while it
   * does not, none once it has. Marks the connection hung and counts each unanswered request.
   */
  private int hangPoint(byte[] buf, int n, AtomicBoolean hung) {
    Matcher m = REQUEST_LINE.matcher(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
    int from = hung.get() ? 0 : n;
    while (m.find()) {
      if (!hung.get() && mode == Mode.HANG) {
        hung.set(true);
      }
      if (!hung.get()) {
        Predicate<String> armed = trigger;
        String line = m.group(1) + " " + m.group(2);
        if (armed != null && armed.test(line)) {
          LOG.info("Object store front on port {} hangs from: {}", port, line);
          mode = Mode.HANG;
          trigger = null;
          hung.set(true);
        }
      }
      if (hung.get()) {
        from = Math.min(from, m.start());
        hungRequests.incrementAndGet();
        LOG.info(
            "Object store front on port {} leaves unanswered: {} {}", port, m.group(1), m.group(2));
      }
    }
    return hung.get() ? from : n;
  }

  /** Keeps {@code client} open without reading it until {@link #refuse()} or {@link #close()}. */
  private void holdUnread(Socket client) {
    try {
      while (open.contains(client)) {
        Thread.sleep(50);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(client);
    }
  }

  /** The server's answers back to the client, until the connection hangs. */
  private void relayBack(Socket server, Socket client, AtomicBoolean hung) {
    byte[] buf = new byte[64 * 1024];
    try {
      InputStream in = server.getInputStream();
      OutputStream out = client.getOutputStream();
      int n;
      while ((n = in.read(buf)) >= 0 && !hung.get()) {
        out.write(buf, 0, n);
        out.flush();
      }
      if (!hung.get()) {
        client.shutdownOutput();
      }
    } catch (IOException e) {
      // either side closed
    }
  }

  private static void daemon(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    refuse();
  }
}
