/**
 * The feed store's values and contracts, for everyone: ids, blocks, scopes and replication policies
 * ({@code dev.feedstore.core}), the storage contract with the failures a store reports ({@code
 * dev.feedstore.core.store}), and the live-query language a replica answers ({@code
 * dev.feedstore.core.query}, its results and the JSON it reads). The replica's sync engine is the
 * library's own, exported only to it.
 */
module dev.feedstore.core {
  exports dev.feedstore.core;
  exports dev.feedstore.core.store;
  exports dev.feedstore.core.sync to dev.feedstore.client;
  exports dev.feedstore.core.json;
  exports dev.feedstore.core.query;
  exports dev.feedstore.core.query.result;
}
