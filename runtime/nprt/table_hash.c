/*===- table_hash.c - exact-match hash table ----------------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Open addressing with linear probing (see nprt/tables.h for the layout).
 * Deletion shifts the following entries of the probe run back instead of
 * leaving tombstones, so a probe always ends at the first free slot and
 * lookups do not slow down as entries come and go.
 *
 * The hash of a key folds each word in with a multiply-xorshift step,
 *   h = ((h ^ w) * 0xbf58476d1ce4e5b9); h ^= h >> 32;
 * starting from h = 0, then applies the splitmix64 finaliser (2 more
 * multiplies). Both are bijections of the word folded in, so distinct
 * one-word keys never share a hash, and the finaliser spreads every input
 * bit over the low bits that pick the home slot. The tag kept in a slot is
 * the hash with bit 63 set: nonzero, so a zero word marks a free slot, and
 * its low bits still give the home slot, which the backward shift needs
 * without rehashing the key.
 *
 *===----------------------------------------------------------------------===*/
#include "nprt/tables.h"

#include <string.h>

#define TAG_BIT ((uint64_t)1 << 63)

typedef struct hash_header {
  uint32_t count;
  uint32_t unused;
} hash_header;

_Static_assert(sizeof(hash_header) == 8, "the header NPRT_HASH_BYTES counts");
_Static_assert(NPRT_HASH_SLOTS(0) == 1 && NPRT_HASH_SLOTS(1) == 2 &&
                   NPRT_HASH_SLOTS(3) == 4 && NPRT_HASH_SLOTS(4) == 8 &&
                   NPRT_HASH_SLOTS(48) == 64 && NPRT_HASH_SLOTS(49) == 128 &&
                   NPRT_HASH_SLOTS(NPRT_HASH_MAX_CAPACITY) == (1ull << 31),
               "slot counts");

/* The shape of one table's slot array, from the parameters of one call. */
typedef struct hash_shape {
  uint64_t mask;   /* slot count - 1 */
  uint32_t stride; /* words per slot */
  uint32_t key_words;
} hash_shape;

/* NPRT_HASH_SLOTS without the chain of comparisons the constant expression
 * needs: the smallest power of two >= ceil(4 * capacity / 3). */
static uint64_t slot_count(uint32_t capacity) {
  uint64_t n = ((uint64_t)capacity * 4u + 2u) / 3u;
  return n <= 1 ? 1 : (uint64_t)1 << (64 - __builtin_clzll(n - 1));
}

static hash_shape shape(uint32_t capacity, uint32_t key_words,
                        uint32_t value_words) {
  hash_shape sh = {slot_count(capacity) - 1, 1u + key_words + value_words,
                   key_words};
  return sh;
}

/* The slots follow the header. */
static uint64_t *slots_of(void *table) {
  return (uint64_t *)((hash_header *)table + 1);
}
static const uint64_t *cslots_of(const void *table) {
  return (const uint64_t *)((const hash_header *)table + 1);
}

static uint64_t hash_key(const uint64_t *key, uint32_t key_words) {
  uint64_t h = 0;
  for (uint32_t i = 0; i < key_words; ++i) {
    h = (h ^ key[i]) * 0xbf58476d1ce4e5b9u;
    h ^= h >> 32;
  }
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
  return h ^ (h >> 31);
}

static uint64_t tag_of(const uint64_t *key, uint32_t key_words) {
  return hash_key(key, key_words) | TAG_BIT;
}

static bool same_key(const uint64_t *a, const uint64_t *b, uint32_t words) {
  for (uint32_t i = 0; i < words; ++i)
    if (a[i] != b[i])
      return false;
  return true;
}

/* The index of the slot holding `key`, whose tag is `tag` (*found), or of the
 * free slot that ends its probe run. There always is a free slot (count <=
 * capacity < slot count); the bound only keeps a corrupted table from hanging
 * the caller, which then sees UINT64_MAX. */
static uint64_t probe(const hash_shape *sh, const uint64_t *slots,
                      const uint64_t *key, uint64_t tag, bool *found) {
  uint64_t i = tag & sh->mask;
  for (uint64_t n = 0; n <= sh->mask; ++n, i = (i + 1) & sh->mask) {
    const uint64_t *s = slots + i * sh->stride;
    if (s[0] == 0) {
      *found = false;
      return i;
    }
    if (s[0] == tag && same_key(s + 1, key, sh->key_words)) {
      *found = true;
      return i;
    }
  }
  *found = false;
  return UINT64_MAX;
}

bool nprt_hash_insert(void *table, uint32_t capacity, uint32_t key_words,
                      uint32_t value_words, const uint64_t *key,
                      const uint64_t *value) {
  hash_header *h = table;
  hash_shape sh = shape(capacity, key_words, value_words);
  uint64_t tag = tag_of(key, key_words);
  bool found;
  uint64_t i = probe(&sh, slots_of(table), key, tag, &found);
  if (i == UINT64_MAX || (!found && h->count >= capacity))
    return false;
  uint64_t *s = slots_of(table) + i * sh.stride;
  if (!found) {
    s[0] = tag;
    memcpy(s + 1, key, key_words * sizeof(uint64_t));
    ++h->count;
  }
  if (value)
    memcpy(s + 1 + key_words, value, value_words * sizeof(uint64_t));
  else
    memset(s + 1 + key_words, 0, value_words * sizeof(uint64_t));
  return true;
}

uint64_t *nprt_hash_find(void *table, uint32_t capacity, uint32_t key_words,
                         uint32_t value_words, const uint64_t *key) {
  hash_shape sh = shape(capacity, key_words, value_words);
  bool found;
  uint64_t i = probe(&sh, slots_of(table), key, tag_of(key, key_words), &found);
  return found ? slots_of(table) + i * sh.stride + 1 + key_words : NULL;
}

bool nprt_hash_lookup(const void *table, uint32_t capacity, uint32_t key_words,
                      uint32_t value_words, const uint64_t *key,
                      uint64_t *value) {
  hash_shape sh = shape(capacity, key_words, value_words);
  bool found;
  uint64_t i =
      probe(&sh, cslots_of(table), key, tag_of(key, key_words), &found);
  if (!found)
    return false;
  if (value)
    memcpy(value, cslots_of(table) + i * sh.stride + 1 + key_words,
           value_words * sizeof(uint64_t));
  return true;
}

bool nprt_hash_remove(void *table, uint32_t capacity, uint32_t key_words,
                      uint32_t value_words, const uint64_t *key) {
  hash_header *h = table;
  hash_shape sh = shape(capacity, key_words, value_words);
  uint64_t *slots = slots_of(table);
  bool found;
  uint64_t hole = probe(&sh, slots, key, tag_of(key, key_words), &found);
  if (!found)
    return false;
  /* Backward shift: an entry later in the run may fill the hole if its home
   * slot is not cyclically inside (hole, j], i.e. the hole lies on its probe
   * path. The run ends at a free slot. */
  size_t bytes = sh.stride * sizeof(uint64_t);
  uint64_t j = hole;
  for (uint64_t n = 0; n < sh.mask; ++n) {
    j = (j + 1) & sh.mask;
    const uint64_t *s = slots + j * sh.stride;
    if (s[0] == 0)
      break;
    uint64_t home = s[0] & sh.mask;
    if (((j - home) & sh.mask) >= ((j - hole) & sh.mask)) {
      memcpy(slots + hole * sh.stride, s, bytes);
      hole = j;
    }
  }
  /* Clearing the whole slot, not only its tag, keeps the bytes of a table a
   * function of its operations (state images, memcmp in tests). */
  memset(slots + hole * sh.stride, 0, bytes);
  --h->count;
  return true;
}

uint32_t nprt_hash_count(const void *table, uint32_t capacity,
                         uint32_t key_words, uint32_t value_words) {
  (void)capacity;
  (void)key_words;
  (void)value_words;
  return ((const hash_header *)table)->count;
}

void nprt_hash_clear(void *table, uint32_t capacity, uint32_t key_words,
                     uint32_t value_words) {
  memset(table, 0,
         sizeof(hash_header) +
             slot_count(capacity) *
                 NPRT_HASH_SLOT_BYTES(key_words, value_words));
}

bool nprt_hash_next(const void *table, uint32_t capacity, uint32_t key_words,
                    uint32_t value_words, uint32_t *pos, uint64_t *key,
                    uint64_t *value) {
  hash_shape sh = shape(capacity, key_words, value_words);
  const uint64_t *slots = cslots_of(table);
  for (uint64_t i = *pos; i <= sh.mask; ++i) {
    const uint64_t *s = slots + i * sh.stride;
    if (s[0] == 0)
      continue;
    if (key)
      memcpy(key, s + 1, key_words * sizeof(uint64_t));
    if (value)
      memcpy(value, s + 1 + key_words, value_words * sizeof(uint64_t));
    *pos = (uint32_t)(i + 1);
    return true;
  }
  return false;
}
