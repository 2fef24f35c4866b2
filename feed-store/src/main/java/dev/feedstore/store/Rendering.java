package dev.feedstore.store;

import java.util.EnumMap;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.FetchTriggerValuesAfterReturning;
import org.jooq.conf.RenderNameCase;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * Where the stores' SQL is rendered with jOOQ: one rendering context per dialect, which only
 * renders (the stores run the text on their own prepared statements, so jOOQ never executes
 * anything and never reads a database's version). Names are rendered as written, unquoted and
 * without schema, so the text is the SQL a reader of the schema would write.
 *
 * <p>jOOQ prints a logo and a tip of the day into the application's log the first time it renders;
 * a storage library has no business there, so this class turns both off before jOOQ's first use,
 * unless the application set them itself. Every use of jOOQ in the stores goes through here first.
 *
 * <p>Thread-safe.
 */
public final class Rendering {
  static {
    quietByDefault("org.jooq.no-logo");
    quietByDefault("org.jooq.no-tips");
  }

  private static final Map<SQLDialect, DSLContext> CONTEXTS = new EnumMap<>(SQLDialect.class);

  private Rendering() {}

  /** The context that renders statements for {@code dialect}. */
  public static synchronized DSLContext of(SQLDialect dialect) {
    return CONTEXTS.computeIfAbsent(dialect, d -> DSL.using(d, settings()));
  }

  private static Settings settings() {
    return new Settings()
        .withRenderSchema(false)
        .withRenderCatalog(false)
        .withRenderQuotedNames(RenderQuotedNames.NEVER)
        .withRenderNameCase(RenderNameCase.AS_IS)
        .withExecuteLogging(false)
        // Without this jOOQ leaves RETURNING out of a SQLite INSERT and fetches the values after it
        // (in case a trigger changed them: the schema has no triggers). The snapshot tests pin it.
        .withFetchTriggerValuesAfterReturning(FetchTriggerValuesAfterReturning.NEVER);
  }

  private static void quietByDefault(String property) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, "true");
    }
  }
}
