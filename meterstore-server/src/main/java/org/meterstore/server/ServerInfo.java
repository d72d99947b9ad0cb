package org.meterstore.server;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.vector.types.pojo.Schema;
import org.meterstore.MeterCatalog;

/**
 * The server's Flight SQL {@code SqlInfo}: what a client's {@code DatabaseMetaData} reports. Taken
 * from the in-process connection's metadata, so a BI tool sees over Flight what it sees in process
 * — keywords, functions, limits, identifier case, transaction isolation — plus the server's name,
 * version and read-only flag. Arrow's Flight SQL JDBC driver fails a metadata call whose info the
 * server leaves out (sqlline's connect asked for the default isolation and printed an exception).
 */
final class ServerInfo {
  private ServerInfo() {}

  /** The info of {@code catalog}'s SQL surface, served read-only. */
  static SqlInfoBuilder of(MeterCatalog catalog) {
    SqlInfoBuilder b =
        new SqlInfoBuilder()
            .withFlightSqlServerName("MeterStore")
            .withFlightSqlServerVersion(version())
            .withFlightSqlServerArrowVersion(arrowVersion())
            .withFlightSqlServerReadOnly(true)
            .withFlightSqlServerSql(true)
            .withFlightSqlServerSubstrait(false)
            .withFlightSqlServerTransaction(
                FlightSql.SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
            .withFlightSqlServerCancel(true)
            .withFlightSqlServerBulkIngestion(false)
            .withSqlDdlCatalog(false)
            .withSqlDdlSchema(false)
            .withSqlDdlTable(false);
    try (Connection c = catalog.connection()) {
      DatabaseMetaData md = c.getMetaData();
      strings(b, md);
      booleans(b, md);
      limits(b, md);
      b.withSqlIdentifierCase(
              caseOf(
                  md.storesUpperCaseIdentifiers(),
                  md.storesLowerCaseIdentifiers(),
                  md.supportsMixedCaseIdentifiers()))
          .withSqlQuotedIdentifierCase(
              caseOf(
                  md.storesUpperCaseQuotedIdentifiers(),
                  md.storesLowerCaseQuotedIdentifiers(),
                  md.supportsMixedCaseQuotedIdentifiers()))
          .withSqlNullOrdering(nullOrdering(md))
          .withSqlDefaultTransactionIsolation(md.getDefaultTransactionIsolation())
          .withSqlSupportedTransactionsIsolationLevels()
          .withSqlSupportedResultSetTypes(
              FlightSql.SqlSupportedResultSetType.SQL_RESULT_SET_TYPE_FORWARD_ONLY)
          .withSqlSupportedGroupBy(FlightSql.SqlSupportedGroupBy.SQL_GROUP_BY_UNRELATED)
          .withSqlSupportedUnions(
              FlightSql.SqlSupportedUnions.SQL_UNION, FlightSql.SqlSupportedUnions.SQL_UNION_ALL)
          .withSqlOuterJoinSupportLevel(
              md.supportsFullOuterJoins()
                  ? FlightSql.SqlOuterJoinsSupportLevel.SQL_FULL_OUTER_JOINS
                  : FlightSql.SqlOuterJoinsSupportLevel.SQL_LIMITED_OUTER_JOINS)
          .withSqlSubQueriesSupported(
              FlightSql.SqlSupportedSubqueries.SQL_SUBQUERIES_IN_COMPARISONS,
              FlightSql.SqlSupportedSubqueries.SQL_SUBQUERIES_IN_EXISTS,
              FlightSql.SqlSupportedSubqueries.SQL_SUBQUERIES_IN_INS)
          .withSqlSupportedGrammar(FlightSql.SupportedSqlGrammar.SQL_CORE_GRAMMAR)
          .withSqlAnsi92SupportedLevel(FlightSql.SupportedAnsi92SqlGrammarLevel.ANSI92_ENTRY_SQL)
          .withSqlSchemasSupportedActions()
          .withSqlCatalogsSupportedActions()
          .withSqlSupportedPositionedCommands()
          .withSqlSupportsConvert(Map.of());
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot read the SQL surface's metadata: " + e, e);
    }
    return b;
  }

  private static void strings(SqlInfoBuilder b, DatabaseMetaData md) throws SQLException {
    b.withSqlIdentifierQuoteChar(md.getIdentifierQuoteString())
        .withSqlSearchStringEscape(nonNull(md.getSearchStringEscape()))
        .withSqlExtraNameCharacters(nonNull(md.getExtraNameCharacters()))
        .withSqlSchemaTerm(nonNull(md.getSchemaTerm()))
        .withSqlCatalogTerm(nonNull(md.getCatalogTerm()))
        .withSqlProcedureTerm(nonNull(md.getProcedureTerm()))
        .withSqlKeywords(list(md.getSQLKeywords()))
        .withSqlNumericFunctions(list(md.getNumericFunctions()))
        .withSqlStringFunctions(list(md.getStringFunctions()))
        .withSqlSystemFunctions(list(md.getSystemFunctions()))
        .withSqlDatetimeFunctions(list(md.getTimeDateFunctions()));
  }

  private static void booleans(SqlInfoBuilder b, DatabaseMetaData md) throws SQLException {
    b.withSqlSupportsColumnAliasing(md.supportsColumnAliasing())
        .withSqlNullPlusNullIsNull(md.nullPlusNonNullIsNull())
        .withSqlSupportsTableCorrelationNames(md.supportsTableCorrelationNames())
        .withSqlSupportsDifferentTableCorrelationNames(md.supportsDifferentTableCorrelationNames())
        .withSqlSupportsExpressionsInOrderBy(md.supportsExpressionsInOrderBy())
        .withSqlSupportsOrderByUnrelated(md.supportsOrderByUnrelated())
        .withSqlSupportsLikeEscapeClause(md.supportsLikeEscapeClause())
        .withSqlSupportsNonNullableColumns(md.supportsNonNullableColumns())
        .withSqlSupportsIntegrityEnhancementFacility(md.supportsIntegrityEnhancementFacility())
        .withSqlCatalogAtStart(md.isCatalogAtStart())
        .withSqlSelectForUpdateSupported(false)
        .withSqlStoredProceduresSupported(false)
        .withSqlCorrelatedSubqueriesSupported(md.supportsCorrelatedSubqueries())
        .withSqlMaxRowSizeIncludesBlobs(md.doesMaxRowSizeIncludeBlobs())
        .withSqlTransactionsSupported(false)
        .withSqlDataDefinitionCausesTransactionCommit(false)
        .withSqlDataDefinitionsInTransactionsIgnored(false)
        .withSqlBatchUpdatesSupported(false)
        .withSqlSavepointsSupported(false)
        .withSqlNamedParametersSupported(false)
        .withSqlLocatorsUpdateCopy(md.locatorsUpdateCopy())
        .withSqlStoredFunctionsUsingCallSyntaxSupported(false)
        .withSqlAllTablesAreSelectable(md.allTablesAreSelectable());
  }

  private static void limits(SqlInfoBuilder b, DatabaseMetaData md) throws SQLException {
    b.withSqlMaxBinaryLiteralLength(md.getMaxBinaryLiteralLength())
        .withSqlMaxCharLiteralLength(md.getMaxCharLiteralLength())
        .withSqlMaxColumnNameLength(md.getMaxColumnNameLength())
        .withSqlMaxColumnsInGroupBy(md.getMaxColumnsInGroupBy())
        .withSqlMaxColumnsInIndex(md.getMaxColumnsInIndex())
        .withSqlMaxColumnsInOrderBy(md.getMaxColumnsInOrderBy())
        .withSqlMaxColumnsInSelect(md.getMaxColumnsInSelect())
        .withSqlMaxColumnsInTable(md.getMaxColumnsInTable())
        .withSqlMaxConnections(md.getMaxConnections())
        .withSqlMaxCursorNameLength(md.getMaxCursorNameLength())
        .withSqlMaxIndexLength(md.getMaxIndexLength())
        .withSqlDbSchemaNameLength(md.getMaxSchemaNameLength())
        .withSqlMaxProcedureNameLength(md.getMaxProcedureNameLength())
        .withSqlMaxCatalogNameLength(md.getMaxCatalogNameLength())
        .withSqlMaxRowSize(md.getMaxRowSize())
        .withSqlMaxStatementLength(SqlProducer.MAX_SQL_CHARS)
        .withSqlMaxStatements(md.getMaxStatements())
        .withSqlMaxTableNameLength(md.getMaxTableNameLength())
        .withSqlMaxTablesInSelect(md.getMaxTablesInSelect())
        .withSqlMaxUsernameLength(md.getMaxUserNameLength());
  }

  private static FlightSql.SqlSupportedCaseSensitivity caseOf(
      boolean upper, boolean lower, boolean mixed) {
    if (upper) {
      return FlightSql.SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_UPPERCASE;
    }
    if (lower) {
      return FlightSql.SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_LOWERCASE;
    }
    return mixed
        ? FlightSql.SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE
        : FlightSql.SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_UNKNOWN;
  }

  private static FlightSql.SqlNullOrdering nullOrdering(DatabaseMetaData md) throws SQLException {
    if (md.nullsAreSortedAtStart()) {
      return FlightSql.SqlNullOrdering.SQL_NULLS_SORTED_AT_START;
    }
    if (md.nullsAreSortedAtEnd()) {
      return FlightSql.SqlNullOrdering.SQL_NULLS_SORTED_AT_END;
    }
    return md.nullsAreSortedHigh()
        ? FlightSql.SqlNullOrdering.SQL_NULLS_SORTED_HIGH
        : FlightSql.SqlNullOrdering.SQL_NULLS_SORTED_LOW;
  }

  private static String[] list(String commaSeparated) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      return new String[0];
    }
    List<String> out = new ArrayList<>();
    for (String s : commaSeparated.split(",")) {
      if (!s.isBlank()) {
        out.add(s.strip());
      }
    }
    return out.toArray(String[]::new);
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }

  private static String arrowVersion() {
    String v = Schema.class.getPackage().getImplementationVersion();
    return v == null ? "unknown" : v;
  }

  private static String version() {
    String v = ServerInfo.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }
}
