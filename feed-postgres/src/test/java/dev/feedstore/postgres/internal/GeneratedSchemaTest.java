package dev.feedstore.postgres.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.store.schema.DefaultSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jooq.Field;
import org.jooq.Table;
import org.junit.jupiter.api.Test;

/**
 * The schema classes are generated from the SQLite migrations; the PostgreSQL store runs the same
 * statements on the schema its own migrations make. This checks, on a real PostgreSQL, that the two
 * cannot drift apart: every generated table and column the PostgreSQL store uses exists there, with
 * a column type that reads and writes the same Java type, and PostgreSQL has no table or column the
 * generated classes lack. What differs by design is listed here, each with its reason.
 */
class GeneratedSchemaTest {
  /** A replica's tables: replicas keep their state in SQLite only. */
  private static final Set<String> SQLITE_ONLY_TABLES = Set.of("sync_state", "feed_replication",
      "namespace_replication", "space_replication", "set_aside_blocks");
  /**
   * A replica's columns: a SQLite row id (PostgreSQL keys blocks by space and position, since every
   * block of an authority has one) and whether another store may hold the block.
   */
  private static final Set<String> SQLITE_ONLY_COLUMNS = Set.of("blocks.block_private_id", "blocks.published");
  /** The schema's version lives in PRAGMA user_version on SQLite, in a table on PostgreSQL. */
  private static final Set<String> POSTGRES_ONLY_TABLES = Set.of("feedstore_schema");
  /**
   * Lists of ids: JSON text on SQLite, {@code text[]} on PostgreSQL, bound and read by each store's
   * dialect ({@code StoreDialect.idList}); the Java type the store works with is a list of strings.
   */
  private static final Map<String, Class<?>> POSTGRES_TYPES = Map.of("subscriptions.feed_ids", String[].class,
      "subscriptions.namespaces", String[].class);

  @Test
  void everyGeneratedTableAndColumnTheStoreUsesExistsOnPostgresqlWithTheSameJavaType() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    PostgresStore.open(EmbeddedDatabase.settings(url)).close();
    Map<String, Class<?>> postgres = postgresColumns(url);

    Map<String, Class<?>> generated = new TreeMap<>();
    for (Table<?> table : DefaultSchema.DEFAULT_SCHEMA.getTables()) {
      if (SQLITE_ONLY_TABLES.contains(table.getName())) {
        continue;
      }
      for (Field<?> field : table.fields()) {
        String column = table.getName() + "." + field.getName();
        if (!SQLITE_ONLY_COLUMNS.contains(column)) {
          generated.put(column, POSTGRES_TYPES.getOrDefault(column, field.getType()));
        }
      }
    }
    List<String> drift = new ArrayList<>();
    generated.forEach((column, type) -> {
      Class<?> onPostgres = postgres.get(column);
      if (onPostgres == null) {
        drift.add(column + " is generated but missing on PostgreSQL");
      } else if (!onPostgres.equals(type)) {
        drift.add(column + " is " + type.getSimpleName() + " in the generated classes but "
            + onPostgres.getSimpleName() + " on PostgreSQL");
      }
    });
    postgres.keySet().stream()
        .filter(column -> !generated.containsKey(column))
        .filter(column -> !POSTGRES_ONLY_TABLES.contains(column.substring(0, column.indexOf('.'))))
        .forEach(column -> drift.add(column + " is on PostgreSQL but not in the generated classes"));
    assertEquals(List.of(), drift, "the schemas of the two stores drifted apart");
    assertTrue(generated.containsKey("blocks.checksum") && generated.size() > 50,
        "the generated classes were read: " + generated.keySet());
  }

  /** Every column of the current schema, as table.column, with the Java type the driver reads it as. */
  private static Map<String, Class<?>> postgresColumns(String url) throws Exception {
    Map<String, Class<?>> columns = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement select = c.prepareStatement("SELECT table_name, column_name, data_type, udt_name"
            + " FROM information_schema.columns WHERE table_schema = current_schema()");
        ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        columns.put(rs.getString(1) + "." + rs.getString(2), javaType(rs.getString(3), rs.getString(4)));
      }
    }
    return columns;
  }

  private static Class<?> javaType(String dataType, String udtName) {
    return switch (dataType) {
      case "bigint" -> Long.class;
      case "integer" -> Integer.class;
      case "text" -> String.class;
      case "bytea" -> byte[].class;
      case "boolean" -> Boolean.class;
      case "ARRAY" -> udtName.equals("_text") ? String[].class : Object[].class;
      default -> throw new IllegalStateException("a column of type " + dataType + " has no Java type here yet");
    };
  }
}
