/**
 * The SQLite feed store: {@code dev.feedstore.sqlite} (the store, its settings, the check of a file
 * at open) is public; how it runs its statements stays inside.
 */
module dev.feedstore.sqlite {
  requires transitive dev.feedstore.core;
  requires dev.feedstore.store;
  requires org.jooq;
  requires java.sql;
  requires org.xerial.sqlitejdbc;
  requires org.slf4j;

  exports dev.feedstore.sqlite;
}
