/*  arcs_kernel: the revision of prolog/arcs.pl in C, a foreign library for
    SWI-Prolog.

    arcs.pl is the specification and the fallback: its propagate/2 revises
    a site's links in Prolog, or, when this library is built and current,
    with one call of arcs_kernel:revise/9 per revision.  Both give the same
    domains, the same wipe-outs in the same order, so the same search node
    for node (tests/test_prolog_kernel.py; tests/test_kernel_c.plt tests
    each source against the Prolog predicates).

    What C changes is where the masks live.  kernel_net/5 copies, once per
    net, the masks its links read (per length, position and letter the
    words with that letter there) into arrays of 64-bit words, and keeps
    per link and letter a residue: a word that last had the letter (AC-3
    with residual supports, as arcs.pl).  Domains stay Prolog integers (the
    search sets them with setarg/3, so backtracking restores them); a
    revision reads the site's domain and each open neighbour's once, tests
    the live letters against them in C and hands back only the domains that
    changed.  The live letters of a link are a bit set over the letters'
    numbers (1 .. the alphabet's size, at most MAX_LETTERS), an integer,
    where arcs.pl keeps a list of entries.

    Built by setup.sh (cc -shared, SWI-Prolog.h from swi-prolog-core, gmp.h
    from libgmp-dev), with KERNEL_SOURCE the SHA-256 of this file and
    KERNEL_SOURCE_BYTES its size: arcs.pl loads the library only when it is
    newer than this file and that is still its size (checks that cost no
    more than a look at the files).

    No I/O here.
*/

#include <gmp.h>
#include <SWI-Prolog.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef KERNEL_SOURCE
#define KERNEL_SOURCE "unknown"
#endif
#ifndef KERNEL_SOURCE_BYTES
#define KERNEL_SOURCE_BYTES 0
#endif

#define MAX_LETTERS 62          /* letter numbers 1..62: a live set fits an int64 */

_Static_assert(sizeof(mp_limb_t) == sizeof(uint64_t), "64-bit GMP limbs expected");

typedef uint64_t limb;

typedef struct
{ const limb *here;             /* this site's words with the letter here (NULL: none) */
  const limb *there;            /* the neighbour's words with it over there */
  int64_t residue;              /* a word of here that last had it (nwords: none) */
} entry;

typedef struct
{ int i;                        /* position here */
  int t;                        /* the neighbour */
  int x;                        /* the crossing */
  uint64_t letters;             /* the neighbour's letters at its position (bit a) */
  entry *by_letter;             /* indexed by letter number, 0..size */
} link_t;

typedef struct
{ int nlinks;
  link_t *links;
  int length;
  int64_t nwords;               /* words of its length */
} site_t;

typedef struct
{ int nsites;
  site_t *sites;
  int size;                     /* letters in the alphabet */
  int *codes;                   /* their codes, ascending (letter a is codes[a - 1]) */
  int nmasks, masks_room;
  limb **masks;                 /* every mask copied, to free */
  size_t bytes;                 /* what it took */
  int in_live;                  /* bytes is counted in live_bytes */
} kernel_t;

/* The memory the kernels not yet released hold.  A kernel is released when
   atom garbage collection finds its blob unreferenced, which the number of
   atoms made (not memory) triggers: arcs.pl asks for one when this grows
   large (net_kernel/5). */
static size_t live_bytes = 0;

static void *
counted(kernel_t *k, size_t count, size_t size)
{ void *p = calloc(count ? count : 1, size);
  if ( p )
    k->bytes += (count ? count : 1) * size;
  return p;
}

                 /*******************************
                 *            THE BLOB          *
                 *******************************/

static void
free_kernel(kernel_t *k)
{ if ( !k )
    return;
  if ( k->sites )
  { for (int s = 0; s < k->nsites; s++)
    { site_t *site = &k->sites[s];
      if ( site->links )
      { for (int l = 0; l < site->nlinks; l++)
          free(site->links[l].by_letter);
        free(site->links);
      }
    }
    free(k->sites);
  }
  if ( k->masks )
  { for (int m = 0; m < k->nmasks; m++)
      free(k->masks[m]);
    free(k->masks);
  }
  free(k->codes);
  if ( k->in_live )
    __atomic_sub_fetch(&live_bytes, k->bytes, __ATOMIC_RELAXED);
  free(k);
}

static int
release_kernel(atom_t symbol)
{ kernel_t **data = PL_blob_data(symbol, NULL, NULL);
  free_kernel(*data);
  return TRUE;
}

static PL_blob_t kernel_blob =
{ .magic = PL_BLOB_MAGIC,
  .flags = PL_BLOB_UNIQUE,       /* the data is the pointer, copied */
  .name = "arcs_kernel",
  .release = release_kernel,    /* compared by address, written <arcs_kernel>(0x...) */
};

static int
get_kernel(term_t t, kernel_t **k)
{ void *data;
  PL_blob_t *type;

  if ( PL_get_blob(t, &data, NULL, &type) && type == &kernel_blob )
  { *k = *(kernel_t **)data;
    return TRUE;
  }
  return PL_type_error("arcs_kernel", t);
}

                 /*******************************
                 *           HELPERS            *
                 *******************************/

static atom_t ATOM_true, ATOM_none, ATOM_domain, ATOM_lost, ATOM_word, ATOM_few;
static functor_t FUNCTOR_minus2, FUNCTOR_table3;

static __thread mpz_t scratch_ds, scratch_dt, scratch_out;
static __thread int scratch_ready = 0;

static void
scratch_init(void)
{ if ( !scratch_ready )
  { mpz_init(scratch_ds);
    mpz_init(scratch_dt);
    mpz_init(scratch_out);
    scratch_ready = 1;
  }
}

/* The number of code Code (1..size), or 0 when it is not in the alphabet. */
static int
letter_of(const kernel_t *k, int code)
{ int lo = 0, hi = k->size - 1;

  while ( lo <= hi )
  { int mid = (lo + hi) / 2;
    if ( k->codes[mid] == code )
      return mid + 1;
    if ( k->codes[mid] < code )
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return 0;
}

static int
get_int_arg(int n, term_t t, term_t a, int *value)
{ return PL_get_arg(n, t, a) && PL_get_integer_ex(a, value);
}

/* A mask of nlimbs limbs from a Prolog integer (non-negative, below
   2^(64 nlimbs)); NULL on error (exception raised). */
static limb *
mask_from(kernel_t *k, term_t t, int nlimbs)
{ limb *mask;
  size_t size;

  if ( !PL_get_mpz(t, scratch_out) )
  { PL_type_error("integer", t);
    return NULL;
  }
  size = mpz_size(scratch_out);
  if ( mpz_sgn(scratch_out) < 0 || size > (size_t)nlimbs )
  { PL_domain_error("word_mask", t);
    return NULL;
  }
  if ( !(mask = counted(k, nlimbs, sizeof(limb))) )
  { PL_resource_error("memory");
    return NULL;
  }
  if ( size )
    memcpy(mask, mpz_limbs_read(scratch_out), size * sizeof(limb));
  if ( k->nmasks == k->masks_room )
  { int room = k->masks_room ? 2 * k->masks_room : 256;
    limb **masks = realloc(k->masks, room * sizeof(limb *));
    if ( !masks )
    { free(mask);
      PL_resource_error("memory");
      return NULL;
    }
    k->bytes += (room - k->masks_room) * sizeof(limb *);
    k->masks = masks;
    k->masks_room = room;
  }
  k->masks[k->nmasks++] = mask;
  return mask;
}

                 /*******************************
                 *        BUILDING A NET        *
                 *******************************/

/* The Code-Mask pairs of position P (from 0) of the table of length L, as a
   term in pairs; FALSE (no exception) when the length has no table. */
static int
position_pairs(term_t tables, int L, int P, term_t pairs, int64_t *nwords)
{ term_t table = PL_new_term_ref(), a = PL_new_term_ref();
  size_t arity;
  atom_t name;

  if ( !PL_get_name_arity(tables, &name, &arity) || L < 1 || (size_t)L > arity )
    return FALSE;
  if ( !PL_get_arg(L, tables, table) || !PL_is_functor(table, FUNCTOR_table3) )
    return FALSE;
  if ( nwords )                 /* table(words(L, N, All, Letters), Full, Masks) */
  { if ( !PL_get_arg(1, table, a) || !PL_get_arg(2, a, a) || !PL_get_int64(a, nwords) )
      return FALSE;
  }
  return PL_get_arg(3, table, a) && PL_get_arg(P + 1, a, pairs);
}

/* The masks of one position, by letter number, copied once per net:
   by_length[L][P] (NULL until first asked for). */
typedef struct
{ int maxlen;                   /* lengths 1..maxlen - 1 */
  limb ****by_length;           /* [L] -> [P] -> array of size + 1 */
} cache_t;

static void
free_cache(cache_t *cache)
{ if ( !cache->by_length )
    return;
  for (int L = 1; L < cache->maxlen; L++)
  { if ( cache->by_length[L] )
    { for (int P = 0; P < L; P++)
        free(cache->by_length[L][P]);
      free(cache->by_length[L]);
    }
  }
  free(cache->by_length);
}

static limb **
position_masks(kernel_t *k, cache_t *cache, term_t tables, int L, int P, int64_t nwords)
{ limb **masks;
  term_t pairs, head, a;
  int nlimbs = (int)((nwords + 63) / 64);

  if ( !cache->by_length[L] && !(cache->by_length[L] = calloc(L, sizeof(limb **))) )
  { PL_resource_error("memory");
    return NULL;
  }
  if ( cache->by_length[L][P] )
    return cache->by_length[L][P];
  pairs = PL_new_term_ref();
  head = PL_new_term_ref();
  a = PL_new_term_ref();
  if ( !(masks = calloc(k->size + 1, sizeof(limb *))) )
  { PL_resource_error("memory");
    return NULL;
  }
  cache->by_length[L][P] = masks;
  if ( !position_pairs(tables, L, P, pairs, NULL) )
    return masks;               /* no table: no letters */
  while ( PL_get_list(pairs, head, pairs) )
  { int code, letter;
    if ( !PL_get_arg(1, head, a) || !PL_get_integer_ex(a, &code) )
      return NULL;
    if ( !(letter = letter_of(k, code)) )
    { PL_domain_error("alphabet_letter", a);
      return NULL;
    }
    if ( !PL_get_arg(2, head, a) || !(masks[letter] = mask_from(k, a, nlimbs)) )
      return NULL;
  }
  return masks;
}

static int64_t
lowest_bit(const limb *mask, int nlimbs, int64_t none)
{ for (int w = 0; w < nlimbs; w++)
  { if ( mask[w] )
      return (int64_t)w * 64 + __builtin_ctzll(mask[w]);
  }
  return none;
}

static int64_t
table_words(term_t tables, int L)
{ term_t pairs = PL_new_term_ref();
  int64_t nwords = 0;

  if ( !position_pairs(tables, L, 0, pairs, &nwords) )
    return 0;
  return nwords;
}

/* kernel_net(+Tables, +Lengths, +Arcs, +Codes, -Kernel) is semidet: see
   arcs.pl's net/6.  Tables the dictionary's (arcs:dictionary/3), Lengths
   per site its length, Arcs per site its x(I, T, J, X) (layout:layout/5),
   Codes the alphabet (ascending, at most MAX_LETTERS).  Kernel holds, per
   link, the masks and residues of the letters of the neighbour at its
   position.  Fails when a site crosses another twice. */
static foreign_t
kernel_net(term_t tables, term_t lengths, term_t arcs, term_t codes, term_t handle)
{ kernel_t *k = calloc(1, sizeof(kernel_t));
  cache_t cache = {0, NULL};
  term_t list = PL_new_term_ref(), head = PL_new_term_ref(), x = PL_new_term_ref();
  term_t site_arcs = PL_new_term_ref(), a = PL_new_term_ref();
  size_t nsites, ncodes, tables_arity;
  atom_t name;
  int *site_length = NULL, rc = FALSE;
  int64_t *length_words = NULL;

  if ( !k )
    return PL_resource_error("memory");
  k->bytes = sizeof(kernel_t);
  scratch_init();
  if ( !PL_skip_list(codes, 0, &ncodes) || ncodes > MAX_LETTERS ||
       !PL_skip_list(lengths, 0, &nsites) ||
       !PL_get_name_arity(tables, &name, &tables_arity) )
  { PL_domain_error("arcs_kernel_net", codes);
    goto out;
  }
  k->size = (int)ncodes;
  k->nsites = (int)nsites;
  k->codes = counted(k, ncodes, sizeof(int));
  k->sites = counted(k, nsites, sizeof(site_t));
  site_length = calloc(nsites ? nsites : 1, sizeof(int));
  if ( !k->codes || !k->sites || !site_length )
  { PL_resource_error("memory");
    goto out;
  }
  cache.maxlen = (int)tables_arity + 1;   /* and the longest site's length */
  if ( !PL_put_term(list, lengths) )
    goto out;
  for (int s = 0; PL_get_list(list, head, list); s++)
  { if ( !PL_get_integer_ex(head, &site_length[s]) )
      goto out;
    if ( site_length[s] < 1 )
    { PL_domain_error("site_length", head);
      goto out;
    }
    if ( site_length[s] >= cache.maxlen )
      cache.maxlen = site_length[s] + 1;
  }
  cache.by_length = calloc(cache.maxlen, sizeof(limb ***));
  length_words = calloc(cache.maxlen, sizeof(int64_t));
  if ( !cache.by_length || !length_words )
  { PL_resource_error("memory");
    goto out;
  }
  if ( !PL_put_term(list, codes) )
    goto out;
  for (int c = 0; PL_get_list(list, head, list); c++)
  { if ( !PL_get_integer_ex(head, &k->codes[c]) )
      goto out;
  }
  for (int L = 1; L < cache.maxlen; L++)
    length_words[L] = table_words(tables, L);
  for (int s = 0; s < k->nsites; s++)
  { k->sites[s].length = site_length[s];
    k->sites[s].nwords = length_words[site_length[s]];
  }
  if ( !PL_put_term(list, arcs) )
    goto out;
  for (int s = 0; PL_get_list(list, site_arcs, list); s++)
  { site_t *site = &k->sites[s];
    size_t nlinks;
    int L = site_length[s];

    if ( s >= k->nsites || !PL_skip_list(site_arcs, 0, &nlinks) )
    { PL_domain_error("arcs", arcs);
      goto out;
    }
    site->nlinks = (int)nlinks;
    if ( !(site->links = counted(k, nlinks, sizeof(link_t))) )
    { PL_resource_error("memory");
      goto out;
    }
    for (int l = 0; PL_get_list(site_arcs, x, site_arcs); l++)
    { link_t *link = &site->links[l];
      int j, LT;
      limb **here, **there;

      if ( !get_int_arg(1, x, a, &link->i) || !get_int_arg(2, x, a, &link->t) ||
           !get_int_arg(3, x, a, &j) || !get_int_arg(4, x, a, &link->x) )
        goto out;
      if ( link->t < 0 || link->t >= k->nsites || link->i < 0 || link->i >= L )
      { PL_domain_error("arc", x);
        goto out;
      }
      LT = site_length[link->t];
      if ( j < 0 || j >= LT )
      { PL_domain_error("arc", x);
        goto out;
      }
      for (int m = 0; m < l; m++)
      { if ( site->links[m].t == link->t )
          goto out;             /* two crossings with one site: a revision reads a
                                   neighbour's domain once, so arcs.pl revises */
      }
      if ( !(here = position_masks(k, &cache, tables, L, link->i, length_words[L])) ||
           !(there = position_masks(k, &cache, tables, LT, j, length_words[LT])) )
        goto out;
      if ( !(link->by_letter = counted(k, k->size + 1, sizeof(entry))) )
      { PL_resource_error("memory");
        goto out;
      }
      for (int a = 1; a <= k->size; a++)
      { entry *e = &link->by_letter[a];
        if ( !there[a] )
          continue;
        link->letters |= (uint64_t)1 << a;
        e->there = there[a];
        e->here = here[a];
        e->residue = here[a] ? lowest_bit(here[a], (int)((site->nwords + 63) / 64), site->nwords)
                             : site->nwords;
      }
    }
  }
  __atomic_add_fetch(&live_bytes, k->bytes, __ATOMIC_RELAXED);
  k->in_live = TRUE;
  { kernel_t *blob = k;
    rc = PL_unify_blob(handle, &blob, sizeof(blob), &kernel_blob);
    if ( rc )
      k = NULL;                 /* the blob owns it now */
  }
out:
  free_cache(&cache);
  free(site_length);
  free(length_words);
  free_kernel(k);
  return rc;
}

/* full_live(+Kernel, +S, -Lives): per link of site S, every letter the
   neighbour has over there (what a first revision looks at). */
static foreign_t
full_live(term_t handle, term_t site_index, term_t lives)
{ kernel_t *k = NULL;
  int s;
  term_t tail = PL_copy_term_ref(lives), head = PL_new_term_ref();

  if ( !get_kernel(handle, &k) || !PL_get_integer_ex(site_index, &s) )
    return FALSE;
  if ( s < 0 || s >= k->nsites )
    return PL_domain_error("site", site_index);
  for (int l = 0; l < k->sites[s].nlinks; l++)
  { if ( !PL_unify_list(tail, head, tail) ||
         !PL_unify_int64(head, (int64_t)k->sites[s].links[l].letters) )
      return FALSE;
  }
  return PL_unify_nil(tail);
}

                 /*******************************
                 *          REVISIONS           *
                 *******************************/

/* The source of a revision: what the site's words are. */
typedef enum { SOURCE_DOMAIN, SOURCE_LOST, SOURCE_FEW, SOURCE_WORD } source_kind;

#define MAX_FEW 64

typedef struct
{ source_kind kind;
  const limb *ds;               /* the site's domain (DOMAIN, LOST) */
  size_t ds_size;               /* its limbs */
  size_t ds_low;                /* its lowest limb not 0 */
  int nwords;                   /* LOST, WORD: 1; FEW: how many */
  pl_wchar_t *words[MAX_FEW];   /* their letters */
  size_t length;                /* the site's length */
  size_t limbs;                 /* of its masks */
} source_t;

static int
has_bit(const source_t *src, int64_t bit)
{ size_t w = (size_t)(bit >> 6);
  return w < src->ds_size && (src->ds[w] >> (bit & 63)) & 1;
}

/* Whether the letter of entry e still has a word in the source's domain
   (its residue, or a new one: then kept as the residue). */
static int
supported(const source_t *src, entry *e)
{ if ( has_bit(src, e->residue) )
    return TRUE;
  if ( e->here )
  { for (size_t w = src->ds_low; w < src->ds_size; w++)
    { limb both = src->ds[w] & e->here[w];
      if ( both )
      { e->residue = (int64_t)w * 64 + __builtin_ctzll(both);
        return TRUE;
      }
    }
  }
  return FALSE;
}

static int
overlaps(const limb *a, size_t n, const limb *b)
{ for (size_t w = 0; w < n; w++)
  { if ( a[w] & b[w] )
      return TRUE;
  }
  return FALSE;
}

/* The neighbour's domain, read once per link at most. */
typedef struct
{ term_t dom;
  term_t dt;                    /* a term ref to read it with */
  int t;
  size_t limbs;                 /* of its length's masks */
  const limb *d;
  size_t size;
} neighbour_t;

static int
read_neighbour(neighbour_t *n)
{ if ( !PL_get_arg(n->t + 1, n->dom, n->dt) || !PL_get_mpz(n->dt, scratch_dt) )
    return PL_type_error("integer", n->dt);
  n->d = mpz_limbs_read(scratch_dt);
  n->size = mpz_size(scratch_dt);
  if ( mpz_sgn(scratch_dt) < 0 || n->size > n->limbs )
    return PL_domain_error("domain_of_its_length", n->dt);  /* the masks are that long */
  return TRUE;
}

/* Kept into scratch_out: the neighbour's domain without the words of each
   letter of gone (bit a) that it has; *changed when some went. */
static void
take_away(const link_t *link, const neighbour_t *n, uint64_t gone, int *changed)
{ limb *out = NULL;

  *changed = FALSE;
  for (uint64_t g = gone; g; g &= g - 1)
  { const limb *there = link->by_letter[__builtin_ctzll(g)].there;
    if ( !overlaps(n->d, n->size, there) )
      continue;                 /* the neighbour lacks the letter too */
    if ( !*changed )
    { out = mpz_limbs_write(scratch_out, n->size ? n->size : 1);
      memcpy(out, n->d, n->size * sizeof(limb));
      *changed = TRUE;
    }
    for (size_t w = 0; w < n->size; w++)
      out[w] &= ~there[w];
  }
  if ( *changed )
    mpz_limbs_finish(scratch_out, (mp_size_t)n->size);
}

/* Kept into scratch_out: the neighbour's words with one of the letters of
   allowed (bit a); *changed when it lost some. */
static void
keep_only(const link_t *link, const neighbour_t *n, uint64_t allowed, int *changed)
{ limb *out = mpz_limbs_write(scratch_out, n->size ? n->size : 1);
  limb lost = 0;

  for (size_t w = 0; w < n->size; w++)
  { limb any = 0;
    for (uint64_t g = allowed; g; g &= g - 1)
      any |= link->by_letter[__builtin_ctzll(g)].there[w];
    out[w] = n->d[w] & any;
    lost |= n->d[w] & ~any;
  }
  mpz_limbs_finish(scratch_out, (mp_size_t)n->size);
  *changed = lost != 0;
}

/* The letter number of each source word at position i, as a set. */
static uint64_t
source_letters(const kernel_t *k, const source_t *src, int i)
{ uint64_t letters = 0;

  for (int w = 0; w < src->nwords; w++)
  { int a = letter_of(k, (int)src->words[w][i]);
    if ( a )
      letters |= (uint64_t)1 << a;
  }
  return letters;
}

static int
get_word(term_t t, source_t *src, int w)
{ size_t len;
  pl_wchar_t *text;

  if ( !PL_get_wchars(t, &len, &text, CVT_STRING|CVT_ATOM|CVT_EXCEPTION|BUF_STACK) )
    return FALSE;
  if ( len != src->length )
    return PL_domain_error("word_of_site_length", t);
  src->words[w] = text;
  return TRUE;
}

static int
get_domain(term_t t, source_t *src)
{ if ( !PL_get_mpz(t, scratch_ds) )
    return PL_type_error("integer", t);
  src->ds = mpz_limbs_read(scratch_ds);
  src->ds_size = mpz_size(scratch_ds);
  if ( mpz_sgn(scratch_ds) < 0 || src->ds_size > src->limbs )
    return PL_domain_error("domain_of_its_length", t);   /* the masks are that long */
  src->ds_low = 0;
  while ( src->ds_low < src->ds_size && !src->ds[src->ds_low] )
    src->ds_low++;
  return TRUE;
}

static int
get_source(term_t t, source_t *src)
{ atom_t name;
  size_t arity;
  term_t a = PL_new_term_ref(), list = PL_new_term_ref(), head = PL_new_term_ref();

  if ( !PL_get_name_arity(t, &name, &arity) )
    return PL_type_error("arcs_source", t);
  src->nwords = 0;
  if ( name == ATOM_domain && arity == 1 )
  { src->kind = SOURCE_DOMAIN;
    return PL_get_arg(1, t, a) && get_domain(a, src);
  }
  if ( name == ATOM_lost && arity == 2 )
  { src->kind = SOURCE_LOST;
    src->nwords = 1;
    return PL_get_arg(1, t, a) && get_word(a, src, 0) &&
           PL_get_arg(2, t, a) && get_domain(a, src);
  }
  if ( name == ATOM_word && arity == 1 )
  { src->kind = SOURCE_WORD;
    src->nwords = 1;
    return PL_get_arg(1, t, a) && get_word(a, src, 0);
  }
  if ( name == ATOM_few && arity == 1 )
  { src->kind = SOURCE_FEW;
    if ( !PL_get_arg(1, t, list) )
      return FALSE;
    while ( PL_get_list(list, head, list) )
    { if ( src->nwords == MAX_FEW )
        return PL_domain_error("few_words", t);
      if ( !get_word(head, src, src->nwords++) )
        return FALSE;
    }
    return TRUE;
  }
  return PL_domain_error("arcs_source", t);
}

/* One link's revision: Kept in scratch_out when *changed; the live letters
   in *live (in: before). */
static int
revise_link(const kernel_t *k, const source_t *src, link_t *link, neighbour_t *n,
            uint64_t *live, int *changed)
{ *changed = FALSE;
  switch ( src->kind )
  { case SOURCE_DOMAIN:
    { uint64_t gone = 0;
      for (uint64_t g = *live; g; g &= g - 1)
      { int a = __builtin_ctzll(g);
        if ( !supported(src, &link->by_letter[a]) )
          gone |= (uint64_t)1 << a;
      }
      if ( gone )
      { *live &= ~gone;
        if ( !read_neighbour(n) )
          return FALSE;
        take_away(link, n, gone, changed);
      }
      return TRUE;
    }
    case SOURCE_LOST:           /* only the lost word's letter can have gone */
    { int a = letter_of(k, (int)src->words[0][link->i]);
      uint64_t bit = (uint64_t)1 << a;
      if ( !a || !(link->letters & bit) || supported(src, &link->by_letter[a]) )
        return TRUE;
      *live &= ~bit;
      if ( !read_neighbour(n) )
        return FALSE;
      take_away(link, n, bit, changed);
      return TRUE;
    }
    case SOURCE_FEW:
    case SOURCE_WORD:
    { uint64_t letters = source_letters(k, src, link->i) & link->letters;
      if ( src->kind == SOURCE_FEW )
        *live = letters;
      if ( !read_neighbour(n) )
        return FALSE;
      keep_only(link, n, letters, changed);
      return TRUE;
    }
  }
  return TRUE;
}

/* revise(+Kernel, +S, +Source, +Lives0, +Dom, +Open, -Lives, -Changes,
   -Wipe): the revision of site S's links to open sites from Source (see
   arcs.pl's source/8: domain(DS), lost(Word, DS), few(Words), word(Word)),
   Lives0 per link the live letters before.  Changes is the list of T-Kept,
   in link order, for the neighbours T whose domain lost words; Wipe is
   none, or the crossing X of the first link whose neighbour lost them
   all (Changes then holds the changes before it). */
static foreign_t
revise(term_t handle, term_t site_index, term_t source, term_t lives0, term_t dom,
       term_t open, term_t lives, term_t changes, term_t wipe)
{ kernel_t *k = NULL;
  int s;
  source_t src;
  site_t *site;
  term_t in = PL_copy_term_ref(lives0), live_in = PL_new_term_ref();
  term_t out = PL_copy_term_ref(lives), live_out = PL_new_term_ref();
  term_t change_tail = PL_copy_term_ref(changes), change = PL_new_term_ref();
  term_t flag = PL_new_term_ref(), kept = PL_new_term_ref();
  neighbour_t n;

  if ( !get_kernel(handle, &k) || !PL_get_integer_ex(site_index, &s) )
    return FALSE;
  if ( s < 0 || s >= k->nsites )
    return PL_domain_error("site", site_index);
  scratch_init();
  site = &k->sites[s];
  src.length = (size_t)site->length;
  src.limbs = (size_t)((site->nwords + 63) / 64);
  if ( !get_source(source, &src) )
    return FALSE;
  n.dom = dom;
  n.dt = PL_new_term_ref();
  for (int l = 0; l < site->nlinks; l++)
  { link_t *link = &site->links[l];
    int64_t before;
    uint64_t live;
    int changed = FALSE;
    atom_t is_open;

    if ( !PL_get_list(in, live_in, in) || !PL_get_int64_ex(live_in, &before) )
      return PL_domain_error("lives", lives0);
    live = (uint64_t)before & link->letters;    /* a live set holds no other letter */
    if ( !PL_get_arg(link->t + 1, open, flag) )
      return PL_domain_error("open", open);
    if ( PL_get_atom(flag, &is_open) && is_open == ATOM_true )
    { n.t = link->t;
      n.limbs = (size_t)((k->sites[link->t].nwords + 63) / 64);
      if ( !revise_link(k, &src, link, &n, &live, &changed) )
        return FALSE;
    }
    if ( !PL_unify_list(out, live_out, out) || !PL_unify_int64(live_out, (int64_t)live) )
      return FALSE;
    if ( changed )
    { if ( mpz_sgn(scratch_out) == 0 )
        return PL_unify_nil(change_tail) && PL_unify_integer(wipe, link->x);
      if ( !PL_unify_list(change_tail, change, change_tail) ||
           !PL_put_variable(kept) || !PL_unify_mpz(kept, scratch_out) ||
           !PL_unify_term(change, PL_FUNCTOR, FUNCTOR_minus2, PL_INT, link->t, PL_TERM, kept) )
        return FALSE;
    }
  }
  return PL_unify_nil(out) && PL_unify_nil(change_tail) && PL_unify_atom(wipe, ATOM_none);
}

/* kernel_bytes(-Bytes): the memory that the kernels not yet released hold. */
static foreign_t
kernel_bytes(term_t bytes)
{ return PL_unify_uint64(bytes, __atomic_load_n(&live_bytes, __ATOMIC_RELAXED));
}

/* built_from(-Bytes, -Digest): the size and the SHA-256 of the
   arcs_kernel.c this library was built from. */
static foreign_t
built_from(term_t bytes, term_t digest)
{ return PL_unify_int64(bytes, KERNEL_SOURCE_BYTES) && PL_unify_atom_chars(digest, KERNEL_SOURCE);
}

install_t
install_arcs_kernel(void)
{ ATOM_true = PL_new_atom("true");
  ATOM_none = PL_new_atom("none");
  ATOM_domain = PL_new_atom("domain");
  ATOM_lost = PL_new_atom("lost");
  ATOM_word = PL_new_atom("word");
  ATOM_few = PL_new_atom("few");
  FUNCTOR_minus2 = PL_new_functor(PL_new_atom("-"), 2);
  FUNCTOR_table3 = PL_new_functor(PL_new_atom("table"), 3);
  PL_register_foreign_in_module("arcs_kernel", "kernel_net", 5, kernel_net, 0);
  PL_register_foreign_in_module("arcs_kernel", "full_live", 3, full_live, 0);
  PL_register_foreign_in_module("arcs_kernel", "revise", 9, revise, 0);
  PL_register_foreign_in_module("arcs_kernel", "built_from", 2, built_from, 0);
  PL_register_foreign_in_module("arcs_kernel", "kernel_bytes", 1, kernel_bytes, 0);
}
