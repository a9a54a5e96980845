/*===- tables.h - fixed-size lookup tables in element state ----*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Tables that live inside an instance's state object. The runtime allocates
 * that object as one flat block and fills it with zeros or a constant image,
 * so a table is a fixed region of bytes whose size is an integer constant
 * expression of its capacity, all-zero bytes are a valid empty table, and
 * the region holds indices instead of pointers: it may be copied with
 * memcpy. Generated code knows the capacity (and the word counts of a hash
 * table) as constants and passes them to every call; a region must always
 * be used with the parameters it was sized for. Regions need 8-byte
 * alignment (NPRT_TABLE_ALIGN) and are opaque: only these functions read or
 * write them. Nothing here allocates, makes system calls or keeps global
 * state; calls on different tables may run concurrently, calls on one table
 * may not.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NPRT_TABLES_H
#define NPRT_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPRT_TABLE_ALIGN 8

/*--- IPv4 longest-prefix-match table ---*/

/* A path-compressed binary trie over (addr, len) prefixes with values. Every
 * node without a value has two children, so `capacity` prefixes need at
 * most 2 * capacity - 1 nodes: the region is a 16-byte header and an array
 * of 2 * capacity 24-byte nodes, 16 + 48 * capacity bytes. A lookup visits
 * at most 33 nodes (one per prefix length on the path). */
#define NPRT_LPM_MAX_CAPACITY (1u << 30)
#define NPRT_LPM_NODE_BYTES 24u
#define NPRT_LPM_BYTES(capacity)                                               \
  ((size_t)16u + (size_t)2u * NPRT_LPM_NODE_BYTES * (size_t)(capacity))

/* Adds prefix `addr`/`len` (len 0..32; address bits past `len` are ignored)
 * with `value`, or replaces the value of that prefix if present. False,
 * leaving the table unchanged, when a new prefix would exceed `capacity`
 * prefixes or `len` > 32. */
bool nprt_lpm_insert(void *table, uint32_t capacity, uint32_t addr,
                     uint32_t len, uint64_t value);
/* Removes prefix `addr`/`len` (bits past `len` ignored); false if absent. */
bool nprt_lpm_remove(void *table, uint32_t capacity, uint32_t addr,
                     uint32_t len);
/* The value of the longest prefix containing `addr` into `*value` (which may
 * be NULL); false, leaving `*value` alone, when no prefix matches. */
bool nprt_lpm_lookup(const void *table, uint32_t capacity, uint32_t addr,
                     uint64_t *value);
/* Number of prefixes. */
uint32_t nprt_lpm_count(const void *table, uint32_t capacity);
/* Removes every prefix. */
void nprt_lpm_clear(void *table, uint32_t capacity);
/* Iteration in ascending (address, length) order, addresses with the bits
 * past the length cleared: 0.0.0.0/0, 10.0.0.0/8, 10.0.0.0/16, 10.1.0.0/16,
 * 11.0.0.0/8, ... nprt_lpm_first stores the first entry; nprt_lpm_next
 * takes the previous entry's address and length in `*addr` and `*len` and
 * replaces them (and `*value`, which may be NULL) with the next one. Both
 * return false after the last entry. The cursor is only that key, so the
 * table may change between calls: iteration continues after the key. */
bool nprt_lpm_first(const void *table, uint32_t capacity, uint32_t *addr,
                    uint32_t *len, uint64_t *value);
bool nprt_lpm_next(const void *table, uint32_t capacity, uint32_t *addr,
                   uint32_t *len, uint64_t *value);

/*--- Exact-match hash table ---*/

/* Open addressing with linear probing over a power-of-two slot array of at
 * least capacity * 4/3 slots, so the load factor never exceeds 3/4 and an
 * empty slot always ends a probe. A slot is 1 + key_words + value_words
 * uint64_t words: a tag (the key's hash with bit 63 set; 0 = free), the key
 * and the value. The region is an 8-byte header and the slots. Keys are
 * 1..4 words (NPRT_HASH_MAX_KEY_WORDS), values 0..8 words. */
#define NPRT_HASH_MAX_CAPACITY (1u << 30)
#define NPRT_HASH_MAX_KEY_WORDS 4u
#define NPRT_HASH_MAX_VALUE_WORDS 8u
/* log2 of the slot count: the smallest power of two >= ceil(4 * cap / 3),
 * spelled as a constant expression so that generated C can size arrays. */
#define NPRT_HASH_LE_(n, b) (n) <= ((uint64_t)1 << (b)) ? (b):
#define NPRT_HASH_LOG2_(n)                                                     \
  (NPRT_HASH_LE_(n, 0) NPRT_HASH_LE_(n, 1) NPRT_HASH_LE_(n, 2) NPRT_HASH_LE_(  \
      n, 3) NPRT_HASH_LE_(n, 4) NPRT_HASH_LE_(n, 5) NPRT_HASH_LE_(n, 6)        \
       NPRT_HASH_LE_(n, 7) NPRT_HASH_LE_(n, 8) NPRT_HASH_LE_(n, 9)             \
           NPRT_HASH_LE_(n, 10) NPRT_HASH_LE_(n, 11) NPRT_HASH_LE_(n, 12)      \
               NPRT_HASH_LE_(n, 13) NPRT_HASH_LE_(n, 14) NPRT_HASH_LE_(n, 15)  \
                   NPRT_HASH_LE_(n, 16) NPRT_HASH_LE_(n, 17) NPRT_HASH_LE_(    \
                       n, 18) NPRT_HASH_LE_(n, 19) NPRT_HASH_LE_(n, 20)        \
                       NPRT_HASH_LE_(n, 21) NPRT_HASH_LE_(n, 22)               \
                           NPRT_HASH_LE_(n, 23) NPRT_HASH_LE_(n, 24)           \
                               NPRT_HASH_LE_(n, 25) NPRT_HASH_LE_(n, 26)       \
                                   NPRT_HASH_LE_(n, 27) NPRT_HASH_LE_(n, 28)   \
                                       NPRT_HASH_LE_(n, 29)                    \
                                           NPRT_HASH_LE_(n, 30) 31)
#define NPRT_HASH_SLOTS(capacity)                                              \
  ((size_t)1u << NPRT_HASH_LOG2_(((uint64_t)(capacity) * 4u + 2u) / 3u))
#define NPRT_HASH_SLOT_BYTES(key_words, value_words)                           \
  ((size_t)8u * (1u + (size_t)(key_words) + (size_t)(value_words)))
#define NPRT_HASH_BYTES(capacity, key_words, value_words)                      \
  ((size_t)8u +                                                                \
   NPRT_HASH_SLOTS(capacity) * NPRT_HASH_SLOT_BYTES(key_words, value_words))

/* Every hash function takes the table, its capacity and its key and value
 * word counts; keys and values are arrays of that many words. */

/* Sets the value of `key` to `value` (value_words words; NULL means zeros),
 * adding the key if absent. False, leaving the table unchanged, when the
 * key is new and the table already holds `capacity` keys. */
bool nprt_hash_insert(void *table, uint32_t capacity, uint32_t key_words,
                      uint32_t value_words, const uint64_t *key,
                      const uint64_t *value);
/* Copies the value of `key` into `value` (which may be NULL); false,
 * leaving `value` alone, when the key is absent. */
bool nprt_hash_lookup(const void *table, uint32_t capacity, uint32_t key_words,
                      uint32_t value_words, const uint64_t *key,
                      uint64_t *value);
/* The value words of `key` inside the table, to read or update in place, or
 * NULL when absent. Valid until the next insert, remove or clear, which may
 * move entries. (With value_words == 0 it points just past the key.) */
uint64_t *nprt_hash_find(void *table, uint32_t capacity, uint32_t key_words,
                         uint32_t value_words, const uint64_t *key);
/* Removes `key`; false if absent. */
bool nprt_hash_remove(void *table, uint32_t capacity, uint32_t key_words,
                      uint32_t value_words, const uint64_t *key);
/* Number of keys. */
uint32_t nprt_hash_count(const void *table, uint32_t capacity,
                         uint32_t key_words, uint32_t value_words);
/* Removes every key. */
void nprt_hash_clear(void *table, uint32_t capacity, uint32_t key_words,
                     uint32_t value_words);
/* Iteration in slot order: start with `*pos` = 0; each call copies the next
 * entry's key and value (either may be NULL), advances `*pos` past it and
 * returns true, or returns false at the end. The order depends on the
 * history of the table, not only its contents. An insert or remove between
 * calls may move entries across `*pos`, which are then skipped or seen
 * twice. */
bool nprt_hash_next(const void *table, uint32_t capacity, uint32_t key_words,
                    uint32_t value_words, uint32_t *pos, uint64_t *key,
                    uint64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* NPRT_TABLES_H */
