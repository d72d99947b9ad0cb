package org.meterstore.testing;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class a real PostgreSQL database of its own.
 *
 * <p>Register it with {@code @ExtendWith(PostgresExtension.class)} and declare a {@link
 * TestDatabase} parameter on a constructor, a {@code @BeforeAll}/{@code @BeforeEach} method or a
 * test method. One server is started per JVM and stopped when the JVM's tests end; every top-level
 * test class gets a fresh, empty database (nested classes share their outer class's), dropped after
 * the class. Where the server comes from is described on {@link PostgresServer}: set {@code
 * METERSTORE_TEST_POSTGRES_URL} (plus {@code _USER}, {@code _PASSWORD}) to use an existing server,
 * {@code METERSTORE_TEST_POSTGRES=embedded|docker} to skip the Docker probe.
 */
public final class PostgresExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(PostgresExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    database(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestDatabase.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return database(context);
  }

  private static TestDatabase database(ExtensionContext context) {
    ExtensionContext owner = topLevelClassContext(context);
    return owner
        .getStore(NAMESPACE)
        .computeIfAbsent(
            OwnedDatabase.class,
            k -> new OwnedDatabase(server(context), owner.getRequiredTestClass().getSimpleName()),
            OwnedDatabase.class)
        .database();
  }

  private static PostgresServer server(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .computeIfAbsent(PostgresServer.class, k -> PostgresServer.start(), PostgresServer.class);
  }

  private static ExtensionContext topLevelClassContext(ExtensionContext context) {
    ExtensionContext owner = context;
    while (owner.getParent().isPresent() && owner.getParent().get().getTestClass().isPresent()) {
      owner = owner.getParent().get();
    }
    return owner;
  }

  /** A database that is dropped when the store of the class that owns it closes. */
  private static final class OwnedDatabase implements AutoCloseable {
    private final PostgresServer server;
    private final TestDatabase database;

    OwnedDatabase(PostgresServer server, String owner) {
      this.server = server;
      this.database = server.createDatabase(owner);
    }

    TestDatabase database() {
      return database;
    }

    @Override
    public void close() {
      server.dropDatabase(database);
    }
  }
}
