package org.meterstore.testing;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTSerializers;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * A minimal Iceberg REST catalog server for tests: the JDK's HTTP server on 127.0.0.1 (an ephemeral
 * port) answering the REST catalog's namespace and table routes through Iceberg's own {@link
 * CatalogHandlers} over a backing catalog (a JDBC catalog here). Iceberg 1.12 publishes no
 * test-fixtures server, so this covers exactly the routes MeterStore's client uses. Needs {@code
 * iceberg-core} on the caller's test classpath (an optional dependency of this module).
 */
public final class InProcessRestCatalog implements AutoCloseable {
  private final Catalog backend;
  private final SupportsNamespaces namespaces;
  private final HttpServer server;
  private final ObjectMapper mapper = new ObjectMapper();

  /** Serves {@code backend} on 127.0.0.1 at an ephemeral port, from now until {@link #close()}. */
  public InProcessRestCatalog(Catalog backend) throws IOException {
    this(backend, (SupportsNamespaces) backend);
  }

  /**
   * Serves the tables of {@code backend} and the namespaces of {@code namespaces} (a wrapper such
   * as Iceberg's {@code CachingCatalog} over the catalog that keeps both).
   */
  public InProcessRestCatalog(Catalog backend, SupportsNamespaces namespaces) throws IOException {
    this.backend = backend;
    this.namespaces = namespaces;
    mapper.setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY);
    mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    mapper.setPropertyNamingStrategy(new PropertyNamingStrategies.KebabCaseStrategy());
    RESTSerializers.registerAll(mapper);
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The base URL clients use. */
  public String uri() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      List<String> path =
          Arrays.stream(exchange.getRequestURI().getRawPath().split("/"))
              .filter(s -> !s.isEmpty())
              .map(RESTUtil::decodeString)
              .toList();
      try {
        Object response = route(method, path, exchange);
        if (response == null) {
          exchange.sendResponseHeaders(204, -1);
        } else {
          send(exchange, 200, mapper.writeValueAsBytes(response));
        }
      } catch (RuntimeException e) {
        int code = code(e);
        ErrorResponse error =
            ErrorResponse.builder()
                .responseCode(code)
                .withType(e.getClass().getSimpleName())
                .withMessage(String.valueOf(e.getMessage()))
                .build();
        if (method.equals("HEAD")) {
          exchange.sendResponseHeaders(code, -1);
        } else {
          send(exchange, code, mapper.writeValueAsBytes(error));
        }
      }
    }
  }

  private Object route(String method, List<String> path, HttpExchange exchange) throws IOException {
    String route = method + " " + String.join("/", shape(path));
    switch (route) {
      case "GET v1/config":
        return ConfigResponse.builder().build();
      case "POST v1/namespaces":
        return CatalogHandlers.createNamespace(
            namespaces(), read(exchange, CreateNamespaceRequest.class));
      case "GET v1/namespaces/*":
        return CatalogHandlers.loadNamespace(namespaces(), namespace(path));
      case "HEAD v1/namespaces/*":
        CatalogHandlers.namespaceExists(namespaces(), namespace(path));
        return null;
      case "GET v1/namespaces/*/tables":
        return CatalogHandlers.listTables(backend, namespace(path));
      case "POST v1/namespaces/*/tables":
        CreateTableRequest create = read(exchange, CreateTableRequest.class);
        return create.stageCreate()
            ? CatalogHandlers.stageTableCreate(backend, namespace(path), create)
            : CatalogHandlers.createTable(backend, namespace(path), create);
      case "GET v1/namespaces/*/tables/*":
        return CatalogHandlers.loadTable(
            backend, table(path), RESTCatalogProperties.SnapshotMode.ALL);
      case "HEAD v1/namespaces/*/tables/*":
        CatalogHandlers.tableExists(backend, table(path));
        return null;
      case "POST v1/namespaces/*/tables/*":
        return CatalogHandlers.updateTable(
            backend, table(path), read(exchange, UpdateTableRequest.class));
      case "DELETE v1/namespaces/*/tables/*":
        CatalogHandlers.dropTable(backend, table(path));
        return null;
      case "POST v1/namespaces/*/tables/*/metrics":
        return null;
      default:
        throw new UnsupportedOperationException("not served by the test server: " + route);
    }
  }

  /** The path with namespace and table segments replaced by {@code *}. */
  private static List<String> shape(List<String> path) {
    String[] s = path.toArray(new String[0]);
    if (s.length > 2 && s[1].equals("namespaces")) {
      s[2] = "*";
    }
    if (s.length > 4 && s[3].equals("tables")) {
      s[4] = "*";
    }
    return List.of(s);
  }

  private SupportsNamespaces namespaces() {
    return namespaces;
  }

  private static Namespace namespace(List<String> path) {
    return Namespace.of(path.get(2).split("\u001f"));
  }

  private static TableIdentifier table(List<String> path) {
    return TableIdentifier.of(namespace(path), path.get(4));
  }

  private <T> T read(HttpExchange exchange, Class<T> type) throws IOException {
    return mapper.readValue(exchange.getRequestBody().readAllBytes(), type);
  }

  private static void send(HttpExchange exchange, int code, byte[] body) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static int code(RuntimeException e) {
    if (e instanceof NoSuchTableException
        || e instanceof NoSuchNamespaceException
        || e instanceof NotFoundException) {
      return 404;
    }
    if (e instanceof AlreadyExistsException || e instanceof CommitFailedException) {
      return 409;
    }
    if (e instanceof ValidationException || e instanceof IllegalArgumentException) {
      return 400;
    }
    if (e instanceof UnsupportedOperationException) {
      return 406;
    }
    return 500;
  }
}
