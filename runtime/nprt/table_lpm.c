/*===- table_lpm.c - IPv4 longest-prefix-match table --------------*- C -*-===*
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * A path-compressed binary trie in a fixed node array (see nprt/tables.h).
 * A node stands for one prefix (key, len); its children extend it with bit
 * `len` of the address = 0 or 1, possibly skipping further bits, which is
 * why a lookup compares the node's whole key instead of one bit. The trie
 * is kept canonical: a node without a value always has two children
 * (otherwise it is spliced out), so its shape depends only on the set of
 * prefixes and at most 2 * count - 1 nodes are in use.
 *
 * Links are node index + 1, so 0 means "none" and all-zero memory is an
 * empty trie. Nodes are taken from the free list (linked through child[0])
 * and then from the never-used tail of the array.
 *
 *===----------------------------------------------------------------------===*/
#include "nprt/tables.h"

#include <string.h>

typedef struct lpm_node {
  uint64_t value;
  uint32_t key; /* address with the bits past `len` cleared */
  uint32_t child[2];
  uint8_t len;
  uint8_t has_value;
  uint16_t unused;
} lpm_node;

typedef struct lpm_table {
  uint32_t count;     /* prefixes */
  uint32_t root;      /* link */
  uint32_t used;      /* nodes ever handed out from the array's front */
  uint32_t free_head; /* link */
  lpm_node nodes[];
} lpm_table;

_Static_assert(sizeof(lpm_node) == NPRT_LPM_NODE_BYTES, "node size");
_Static_assert(sizeof(lpm_table) == NPRT_LPM_BYTES(0), "header size");
_Static_assert(_Alignof(lpm_table) <= NPRT_TABLE_ALIGN, "alignment");

/* The top `len` bits set, len 0..32; shifting in 64 bits avoids both the
 * undefined 32-bit shift at len 0 and a branch on the lookup path. */
static uint32_t prefix_mask(uint32_t len) {
  return (uint32_t)(~(uint64_t)0 << (32u - len));
}

/* Bit `pos` (0 = most significant) of `addr`; pos < 32. */
static uint32_t bit_at(uint32_t addr, uint32_t pos) {
  return (addr >> (31u - pos)) & 1u;
}

/* Number of leading bits in which `a` and `b` agree. */
static uint32_t common_bits(uint32_t a, uint32_t b) {
  uint32_t d = a ^ b, n = 0;
  if (!d)
    return 32;
  while (!(d & 0x80000000u)) {
    d <<= 1;
    ++n;
  }
  return n;
}

static lpm_node *node_at(lpm_table *t, uint32_t link) {
  return &t->nodes[link - 1];
}
static const lpm_node *cnode_at(const lpm_table *t, uint32_t link) {
  return &t->nodes[link - 1];
}

/* A link to a fresh node holding (key, len), or 0 when the array is used
 * up, which the count check in nprt_lpm_insert rules out. */
static uint32_t node_new(lpm_table *t, uint32_t capacity, uint32_t key,
                         uint32_t len) {
  uint32_t link = t->free_head;
  if (link)
    t->free_head = node_at(t, link)->child[0];
  else if (t->used < 2u * capacity)
    link = ++t->used;
  else
    return 0;
  lpm_node *n = node_at(t, link);
  memset(n, 0, sizeof(*n));
  n->key = key;
  n->len = (uint8_t)len;
  return link;
}

static void node_free(lpm_table *t, uint32_t link) {
  node_at(t, link)->child[0] = t->free_head;
  t->free_head = link;
}

bool nprt_lpm_insert(void *table, uint32_t capacity, uint32_t addr,
                     uint32_t len, uint64_t value) {
  if (len > 32)
    return false;
  lpm_table *t = table;
  uint32_t key = addr & prefix_mask(len);
  uint32_t *link = &t->root;
  for (;;) {
    if (!*link) {
      if (t->count >= capacity)
        return false;
      uint32_t leaf = node_new(t, capacity, key, len);
      if (!leaf)
        return false;
      node_at(t, leaf)->has_value = 1;
      node_at(t, leaf)->value = value;
      *link = leaf;
      ++t->count;
      return true;
    }
    lpm_node *n = node_at(t, *link);
    uint32_t common = common_bits(key, n->key);
    if (common > n->len)
      common = n->len;
    if (common > len)
      common = len;
    if (common == n->len && common == len) {
      if (!n->has_value) {
        if (t->count >= capacity)
          return false;
        n->has_value = 1;
        ++t->count;
      }
      n->value = value;
      return true;
    }
    if (common == n->len) {
      link = &n->child[bit_at(key, n->len)];
      continue;
    }
    /* The new prefix leaves n's path inside n's skipped bits: it becomes n's
     * parent, or both hang off a new branch node at the first differing
     * bit. Either way the node count stays within 2 * count - 1. */
    if (t->count >= capacity)
      return false;
    uint32_t old = *link, oldKey = n->key;
    uint32_t fresh = node_new(t, capacity, key, len);
    if (!fresh)
      return false;
    lpm_node *f = node_at(t, fresh);
    f->has_value = 1;
    f->value = value;
    if (common == len) {
      f->child[bit_at(oldKey, len)] = old;
      *link = fresh;
    } else {
      uint32_t branch =
          node_new(t, capacity, key & prefix_mask(common), common);
      if (!branch) {
        node_free(t, fresh);
        return false;
      }
      lpm_node *b = node_at(t, branch);
      b->child[bit_at(key, common)] = fresh;
      b->child[bit_at(oldKey, common)] = old;
      *link = branch;
    }
    ++t->count;
    return true;
  }
}

bool nprt_lpm_remove(void *table, uint32_t capacity, uint32_t addr,
                     uint32_t len) {
  (void)capacity;
  if (len > 32)
    return false;
  lpm_table *t = table;
  uint32_t key = addr & prefix_mask(len);
  /* The link to the node and the link to its parent (NULL at the root). */
  uint32_t *link = &t->root, *parentLink = NULL;
  for (;;) {
    if (!*link)
      return false;
    lpm_node *n = node_at(t, *link);
    if (n->len > len || ((key ^ n->key) & prefix_mask(n->len)))
      return false;
    if (n->len == len)
      break;
    parentLink = link;
    link = &n->child[bit_at(key, n->len)];
  }
  uint32_t victim = *link;
  lpm_node *n = node_at(t, victim);
  if (!n->has_value)
    return false;
  --t->count;
  if (n->child[0] && n->child[1]) {
    n->has_value = 0;
    n->value = 0;
    return true;
  }
  *link = n->child[0] ? n->child[0] : n->child[1];
  node_free(t, victim);
  /* A valueless parent that lost a child has one left: splice it out to
   * keep the trie canonical. */
  if (!*link && parentLink) {
    uint32_t parent = *parentLink;
    lpm_node *p = node_at(t, parent);
    if (!p->has_value) {
      *parentLink = p->child[0] ? p->child[0] : p->child[1];
      node_free(t, parent);
    }
  }
  return true;
}

bool nprt_lpm_lookup(const void *table, uint32_t capacity, uint32_t addr,
                     uint64_t *value) {
  (void)capacity;
  const lpm_table *t = table;
  const lpm_node *best = NULL;
  uint32_t link = t->root;
  while (link) {
    const lpm_node *n = cnode_at(t, link);
    if ((addr ^ n->key) & prefix_mask(n->len))
      break;
    if (n->has_value)
      best = n;
    if (n->len == 32)
      break;
    link = n->child[bit_at(addr, n->len)];
  }
  if (!best)
    return false;
  if (value)
    *value = best->value;
  return true;
}

uint32_t nprt_lpm_count(const void *table, uint32_t capacity) {
  (void)capacity;
  return ((const lpm_table *)table)->count;
}

void nprt_lpm_clear(void *table, uint32_t capacity) {
  (void)capacity;
  /* The nodes need no clearing: node_new initialises what it hands out. */
  memset(table, 0, sizeof(lpm_table));
}

/* The first entry of the subtree at `link` in (key, len) order: a node comes
 * before its descendants, and a valueless node has two children, so this
 * walks down at most 33 nodes. */
static const lpm_node *leftmost(const lpm_table *t, uint32_t link) {
  while (link) {
    const lpm_node *n = cnode_at(t, link);
    if (n->has_value)
      return n;
    link = n->child[0] ? n->child[0] : n->child[1];
  }
  return NULL;
}

static bool emit(const lpm_node *n, uint32_t *addr, uint32_t *len,
                 uint64_t *value) {
  if (!n)
    return false;
  *addr = n->key;
  *len = n->len;
  if (value)
    *value = n->value;
  return true;
}

bool nprt_lpm_first(const void *table, uint32_t capacity, uint32_t *addr,
                    uint32_t *len, uint64_t *value) {
  (void)capacity;
  const lpm_table *t = table;
  return emit(leftmost(t, t->root), addr, len, value);
}

bool nprt_lpm_next(const void *table, uint32_t capacity, uint32_t *addr,
                   uint32_t *len, uint64_t *value) {
  (void)capacity;
  const lpm_table *t = table;
  uint32_t l = *len > 32 ? 32 : *len;
  uint32_t a = *addr & prefix_mask(l);
  /* Follow the path of (a, l). Entries of a subtree have keys in [key,
   * key | ~mask(len)] and lengths >= len, so each subtree on the way is
   * wholly after (a, l), wholly before it, or contains it; in the last case
   * only one child can contain it, and when that is child 0, child 1 is
   * wholly after. The deepest such child 1 is the closest fallback. */
  uint32_t link = t->root, fallback = 0;
  while (link) {
    const lpm_node *n = cnode_at(t, link);
    uint32_t m = prefix_mask(n->len);
    if (n->key > a || (n->key == a && n->len > l))
      return emit(leftmost(t, link), addr, len, value);
    if ((a & m) != n->key)
      break; /* wholly before: keys differ within n's prefix */
    if (n->len >= l) {
      /* n is (a, l) itself: all of its descendants come after it. */
      uint32_t c = n->child[0] ? n->child[0] : n->child[1];
      if (c)
        return emit(leftmost(t, c), addr, len, value);
      break;
    }
    if (bit_at(a, n->len) == 0) {
      if (n->child[1])
        fallback = n->child[1];
      link = n->child[0];
    } else {
      link = n->child[1];
    }
  }
  return emit(leftmost(t, fallback), addr, len, value);
}
