/**
 * Live results: the incremental engine that keeps one query's result as documents' current
 * versions change ({@link dev.feedstore.core.query.result.LiveResult}), the net change batches it
 * answers with ({@link dev.feedstore.core.query.result.ChangeBatch}: entered, updated with the row
 * before, left), and a subscriber's copy built from a snapshot and those batches ({@link
 * dev.feedstore.core.query.result.ResultCopy}). No transport, no storage: a replica and an
 * authority drive the same engine, and stamp its batches with what their transports need.
 */
package dev.feedstore.core.query.result;
