/**
 * The PostgreSQL authority store: {@code dev.feedstore.postgres} (the store and its settings) is
 * public; its pool and statements stay inside.
 */
module dev.feedstore.postgres {
  requires transitive dev.feedstore.core;
  requires dev.feedstore.store;
  requires org.jooq;
  requires java.sql;
  requires org.postgresql.jdbc;
  requires com.zaxxer.hikari;
  requires org.slf4j;

  exports dev.feedstore.postgres;
}
