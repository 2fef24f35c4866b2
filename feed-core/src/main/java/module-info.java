/**
 * The feed store's values and contracts: ids, blocks, scopes and replication policies ({@code
 * dev.feedstore.core}) and the storage contract with the failures a store reports ({@code
 * dev.feedstore.core.store}) are for everyone; the replica's sync engine and the live-query
 * language are the library's and the server's own, exported only to them.
 */
module dev.feedstore.core {
  exports dev.feedstore.core;
  exports dev.feedstore.core.store;
  exports dev.feedstore.core.sync to dev.feedstore.client;
  exports dev.feedstore.core.json to dev.feedstore.client, dev.feedstore.server;
  exports dev.feedstore.core.query to dev.feedstore.client, dev.feedstore.server;
  exports dev.feedstore.core.query.result to dev.feedstore.client, dev.feedstore.server;
}
