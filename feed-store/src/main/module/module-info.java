/**
 * The one jOOQ-backed store over the schema generated from the migrations, shared by the SQLite and
 * PostgreSQL stores: internal to them, so it exports its packages to those two modules only.
 */
module dev.feedstore.store {
  requires transitive dev.feedstore.core;
  requires transitive org.jooq;
  requires java.sql;
  requires org.xerial.sqlitejdbc;

  exports dev.feedstore.store to dev.feedstore.sqlite, dev.feedstore.postgres;
  exports dev.feedstore.store.sqlite to dev.feedstore.sqlite;
  exports dev.feedstore.store.schema to dev.feedstore.sqlite, dev.feedstore.postgres;
  exports dev.feedstore.store.schema.tables to dev.feedstore.sqlite, dev.feedstore.postgres;
}
