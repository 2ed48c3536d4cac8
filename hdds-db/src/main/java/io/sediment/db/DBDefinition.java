package io.sediment.db;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The schema of a store: its name and its tables. Immutable.
 *
 * @param name the store name, used in messages and metrics
 * @param tables the tables, with distinct names
 */
public record DBDefinition(String name, List<TableDefinition<?, ?>> tables) {

  public DBDefinition {
    Objects.requireNonNull(name, "name");
    tables = List.copyOf(tables);
    Map<String, TableDefinition<?, ?>> seen = new LinkedHashMap<>();
    for (TableDefinition<?, ?> t : tables) {
      if (seen.put(t.name(), t) != null) {
        throw new IllegalArgumentException("Table " + t.name() + " is defined twice in " + name);
      }
    }
  }

  public static DBDefinition of(String name, TableDefinition<?, ?>... tables) {
    return new DBDefinition(name, List.of(tables));
  }

  /** The table called {@code table}. */
  public TableDefinition<?, ?> table(String table) {
    for (TableDefinition<?, ?> t : tables) {
      if (t.name().equals(table)) {
        return t;
      }
    }
    throw new IllegalArgumentException("Store " + name + " defines no table " + table);
  }
}
