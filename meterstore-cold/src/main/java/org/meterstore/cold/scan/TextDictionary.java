package org.meterstore.cold.scan;

/**
 * The strings behind the ids of {@link TextVector}s: id {@code i} stands for one string, the same
 * for every batch that shares this dictionary object. Two ids of one dictionary may stand for equal
 * strings only when a reader says so (a Parquet dictionary holds each string once; values of
 * plain-encoded pages get ids of their own). A dictionary is shared by the batches of one row group
 * (a new row group brings a new dictionary object); compare dictionaries by identity.
 *
 * <p>Not thread-safe: decoding is lazy and cached, once per id.
 */
public interface TextDictionary {

  /** The string of {@code id}, never null. */
  String value(int id);

  /** One more than the largest id handed out so far. */
  int size();
}
