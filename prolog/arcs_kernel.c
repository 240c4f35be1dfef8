/*  arcs_kernel: the propagation of prolog/arcs.pl in C, a foreign library
    for SWI-Prolog.

    arcs.pl is the specification and the fallback: its propagate/2 revises
    site after site in Prolog, or, when this library is built and current,
    runs the whole queue in one call of arcs_kernel:propagate/7.  Both give
    the same domains, the same wipe-outs in the same order, so the same
    search node for node (tests/test_prolog_kernel.py; prolog/test_arcs.plt
    tests each kind of source against the Prolog predicates).

    What C changes is where the masks live.  kernel_net/5 copies, once per
    net, the masks its links read (per length, position and letter the
    words with that letter there) into arrays of 64-bit words, and keeps
    per link and letter a residue: a word that last had the letter (AC-3
    with residual supports, as arcs.pl), and per length the letter number
    of each word at each position (a revision from one word, a few or the
    one lost reads their letters there).  Domains stay Prolog integers (the
    search sets them with setarg/3, so backtracking restores them, and the
    foreign interface has no setarg): a propagation reads each domain it
    needs once, and each site's support (the domain it was last revised
    from, to work out its source as arcs.pl's source/8 does, and its live
    letters), revises in C on copies of them, queueing as arcs.pl does,
    and hands back the domains that changed and the supports of the sites
    it revised, for arcs.pl to set, once each.  The live letters of a link
    are a bit set over the letters' numbers (1 .. the alphabet's size, at
    most MAX_LETTERS), an integer, where arcs.pl keeps a list of entries.

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
  size_t limbs;                 /* of its length's masks: room for a domain */
  size_t pool_limbs;            /* where its domains start in a scratch's limbs */
  size_t pool_lives;            /* where its live sets start in a scratch's */
  const uint8_t *nums;          /* letter number of word K at P: nums[K * length + P] */
} site_t;

typedef struct scratch scratch_t;  /* a propagation's room (propagate/7) */

typedef struct
{ int nsites;
  site_t *sites;
  int size;                     /* letters in the alphabet */
  int *codes;                   /* their codes, ascending (letter a is codes[a - 1]) */
  int nmasks, masks_room;
  limb **masks;                 /* every mask copied, to free */
  int maxlen;
  uint8_t **nums_by_length;     /* per length, the letter numbers of its words */
  size_t pool_limbs, pool_lives; /* a scratch's room: 2 domains per site, a live set per link */
  size_t max_limbs;             /* the most limbs of a site's domain */
  scratch_t *scratch;           /* for propagate/7 */
  int busy;                     /* scratch in use */
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

static void free_scratch(scratch_t *sc);

static void
free_kernel(kernel_t *k)
{ if ( !k )
    return;
  free_scratch(k->scratch);
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
  if ( k->nums_by_length )
  { for (int L = 0; L < k->maxlen; L++)
      free(k->nums_by_length[L]);
    free(k->nums_by_length);
  }
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

static atom_t ATOM_true, ATOM_none, ATOM_same, ATOM_keep, ATOM_used_up;
static functor_t FUNCTOR_table3, FUNCTOR_sup2, FUNCTOR_u3;

static __thread mpz_t scratch_out;
static __thread int scratch_ready = 0;

static void
scratch_init(void)
{ if ( !scratch_ready )
  { mpz_init(scratch_out);
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

/* What a propagation (propagate/7) knows of a site: its domain, read from
   Dom when first needed and changed here as the revisions take words away,
   and its support, read from Sup when the site is first revised: the
   domain it was last revised from (prev) and per link the live letters. */
typedef struct
{ limb *dom;                    /* room for the limbs of its length's masks */
  size_t size;                  /* in use: the highest not 0, plus one */
  limb *prev;                   /* (same room) */
  size_t prev_size;
  uint64_t *lives;              /* per link */
  char loaded;                  /* dom read */
  char sup_loaded;              /* prev (when has_prev) and lives read */
  char has_prev;                /* none before a first revision */
  char dirty;                   /* dom lost words here */
  char revised;                 /* prev and lives to be kept in Sup */
  char queued;
  signed char open;             /* -1: not read yet */
} state_t;

/* A propagation's room, kept with the kernel (the sizes are the net's):
   per site its state, the limbs of its domain and last domain, its live
   sets; the queue; the sites touched, in the order they were. */
struct scratch
{ state_t *states;
  limb *limbs;
  uint64_t *lives;
  int *queue;
  size_t queue_room;
  int *touched;
  int ntouched;
  uint32_t *nz_source, *nz_other; /* the limbs not 0 of a revision's source, of a neighbour */
  mpz_t big;                    /* a domain read or made (not thread-local: no TLS look-up) */
  int big_ready;
};

static void
free_scratch(scratch_t *sc)
{ if ( sc )
  { if ( sc->big_ready )
      mpz_clear(sc->big);
    free(sc->states);
    free(sc->limbs);
    free(sc->lives);
    free(sc->queue);
    free(sc->touched);
    free(sc->nz_source);
    free(sc->nz_other);
    free(sc);
  }
}

/* A propagation's room for kernel k; NULL on error (exception raised). */
static scratch_t *
new_scratch(const kernel_t *k)
{ scratch_t *sc = calloc(1, sizeof(scratch_t));
  size_t n = (size_t)k->nsites;

  if ( sc )
  { sc->states = calloc(n ? n : 1, sizeof(state_t));
    sc->limbs = malloc((k->pool_limbs ? k->pool_limbs : 1) * sizeof(limb));
    sc->lives = malloc((k->pool_lives ? k->pool_lives : 1) * sizeof(uint64_t));
    sc->queue_room = 2 * n + 1;
    sc->queue = malloc(sc->queue_room * sizeof(int));
    sc->touched = malloc((n ? n : 1) * sizeof(int));
    sc->nz_source = malloc((k->max_limbs ? k->max_limbs : 1) * sizeof(uint32_t));
    sc->nz_other = malloc((k->max_limbs ? k->max_limbs : 1) * sizeof(uint32_t));
  }
  if ( !sc || !sc->states || !sc->limbs || !sc->lives || !sc->queue || !sc->touched ||
       !sc->nz_source || !sc->nz_other )
  { free_scratch(sc);
    PL_resource_error("memory");
    return NULL;
  }
  mpz_init(sc->big);
  sc->big_ready = TRUE;
  for (int s = 0; s < k->nsites; s++)
  { const site_t *site = &k->sites[s];
    state_t *st = &sc->states[s];
    st->dom = sc->limbs + site->pool_limbs;
    st->prev = st->dom + site->limbs;
    st->lives = sc->lives + site->pool_lives;
  }
  return sc;
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

/* The letter numbers of the N words of length L (the table's words end to
   end), nums[K * L + P]; NULL on error (exception raised). */
static uint8_t *
word_numbers(kernel_t *k, term_t tables, int L, int64_t n)
{ term_t table = PL_new_term_ref(), a = PL_new_term_ref();
  size_t len;
  pl_wchar_t *text;
  uint8_t *nums;

  if ( !PL_get_arg(L, tables, table) || !PL_get_arg(1, table, a) || !PL_get_arg(3, a, a) ||
       !PL_get_wchars(a, &len, &text, CVT_STRING|CVT_EXCEPTION|BUF_STACK) )
    return NULL;
  if ( (int64_t)len != n * L )
  { PL_domain_error("words_of_length", a);
    return NULL;
  }
  if ( !(nums = calloc(len ? len : 1, 1)) )
  { PL_resource_error("memory");
    return NULL;
  }
  k->bytes += len;
  for (size_t c = 0; c < len; c++)
    nums[c] = (uint8_t)letter_of(k, (int)text[c]);
  return nums;
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
  k->maxlen = cache.maxlen;
  if ( !(k->nums_by_length = counted(k, cache.maxlen, sizeof(uint8_t *))) )
  { PL_resource_error("memory");
    goto out;
  }
  for (int s = 0; s < k->nsites; s++)
  { int L = site_length[s];
    k->sites[s].length = L;
    k->sites[s].nwords = length_words[L];
    if ( !k->nums_by_length[L] && length_words[L] > 0 &&
         !(k->nums_by_length[L] = word_numbers(k, tables, L, length_words[L])) )
      goto out;
    k->sites[s].nums = k->nums_by_length[L];
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
  for (int s = 0; s < k->nsites; s++)
  { site_t *site = &k->sites[s];
    site->limbs = (size_t)((site->nwords + 63) / 64);
    site->pool_limbs = k->pool_limbs;
    site->pool_lives = k->pool_lives;
    k->pool_limbs += 2 * site->limbs;
    if ( site->limbs > k->max_limbs )
      k->max_limbs = site->limbs;
    k->pool_lives += (size_t)site->nlinks;
  }
  if ( !(k->scratch = new_scratch(k)) )
    goto out;
  k->bytes += (size_t)k->nsites * (sizeof(state_t) + 3 * sizeof(int)) +
              (k->pool_limbs + k->pool_lives) * sizeof(limb) + 2 * k->max_limbs * sizeof(uint32_t);
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

                 /*******************************
                 *          REVISIONS           *
                 *******************************/

/* The source of a revision: what the site's words are. */
typedef enum { SOURCE_DOMAIN, SOURCE_LOST, SOURCE_FEW, SOURCE_WORD } source_kind;

#define FEW_WORDS 16            /* arcs.pl's few_words/1: a few words' letters are read */

typedef struct
{ source_kind kind;
  const limb *ds;               /* the site's domain (DOMAIN, LOST) */
  size_t ds_size;               /* its limbs */
  const uint32_t *nz;           /* the limbs not 0, ascending */
  size_t nnz;
  int nwords;                   /* LOST, WORD: 1; FEW: how many */
  const uint8_t *words[FEW_WORDS]; /* their letter numbers, by position */
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
  { for (size_t i = 0; i < src->nnz; i++)
    { size_t w = src->nz[i];
      limb both = src->ds[w] & e->here[w];
      if ( both )
      { e->residue = (int64_t)w * 64 + __builtin_ctzll(both);
        return TRUE;
      }
    }
  }
  return FALSE;
}

static void
trim(state_t *st)
{ while ( st->size && !st->dom[st->size - 1] )
    st->size--;
}

/* The limbs of d not 0, ascending, into nz; how many. */
static size_t
nonzero_limbs(const limb *d, size_t size, uint32_t *nz)
{ size_t n = 0;

  for (size_t w = 0; w < size; w++)
  { if ( d[w] )
      nz[n++] = (uint32_t)w;
  }
  return n;
}

static int
overlaps(const limb *a, size_t n, const limb *b)
{ for (size_t w = 0; w < n; w++)
  { if ( a[w] & b[w] )
      return TRUE;
  }
  return FALSE;
}

/* The neighbour's domain less the words of each letter of gone (bit a)
   that it has; whether it lost some.  (A letter's words there are apart
   from another's: one letter per word at the crossing.) */
static int
take_away(const link_t *link, state_t *n, uint64_t gone)
{ int changed = FALSE;

  for (uint64_t g = gone; g; g &= g - 1)
  { const limb *there = link->by_letter[__builtin_ctzll(g)].there;
    if ( !overlaps(n->dom, n->size, there) )
      continue;                 /* the neighbour lacks the letter too */
    changed = TRUE;
    for (size_t w = 0; w < n->size; w++)
      n->dom[w] &= ~there[w];
  }
  if ( changed )
    trim(n);
  return changed;
}

/* The neighbour's domain kept to its words with one of the letters of
   allowed (bit a); whether it lost some.  Only its limbs not 0 are
   looked at (nz: room). */
static int
keep_only(const link_t *link, state_t *n, uint64_t allowed, uint32_t *nz)
{ size_t nnz = nonzero_limbs(n->dom, n->size, nz);
  limb lost = 0;

  for (size_t i = 0; i < nnz; i++)
  { size_t w = nz[i];
    limb any = 0;
    for (uint64_t g = allowed; g; g &= g - 1)
      any |= link->by_letter[__builtin_ctzll(g)].there[w];
    lost |= n->dom[w] & ~any;
    n->dom[w] &= any;
  }
  if ( lost )
    trim(n);
  return lost != 0;
}

/* The letter number of each source word at position i, as a set. */
static uint64_t
source_letters(const source_t *src, int i)
{ uint64_t letters = 0;

  for (int w = 0; w < src->nwords; w++)
  { int a = src->words[w][i];
    if ( a )
      letters |= (uint64_t)1 << a;
  }
  return letters;
}

/* One link's revision, the neighbour's domain n changed in place; the live
   letters in *live (in: before); whether n lost words. */
static int
revise_link(const source_t *src, link_t *link, state_t *n, uint64_t *live, uint32_t *nz)
{ switch ( src->kind )
  { case SOURCE_DOMAIN:
    { uint64_t gone = 0;
      for (uint64_t g = *live; g; g &= g - 1)
      { int a = __builtin_ctzll(g);
        if ( !supported(src, &link->by_letter[a]) )
          gone |= (uint64_t)1 << a;
      }
      if ( !gone )
        return FALSE;
      *live &= ~gone;
      return take_away(link, n, gone);
    }
    case SOURCE_LOST:           /* only the lost word's letter can have gone */
    { int a = src->words[0][link->i];
      uint64_t bit = (uint64_t)1 << a;
      if ( !a || !(link->letters & bit) || supported(src, &link->by_letter[a]) )
        return FALSE;
      *live &= ~bit;
      return take_away(link, n, bit);
    }
    case SOURCE_FEW:
    case SOURCE_WORD:
    { uint64_t letters = source_letters(src, link->i) & link->letters;
      if ( src->kind == SOURCE_FEW )
        *live = letters;
      return keep_only(link, n, letters, nz);
    }
  }
  return FALSE;
}

/* The limbs of the non-negative integer t, at most room of them, into
   buf; *size how many are in use. */
static int
get_limbs(mpz_t big, term_t t, limb *buf, size_t room, size_t *size)
{ int64_t small;

  if ( PL_get_int64(t, &small) )
  { if ( small < 0 || (small && room < 1) )
      return PL_domain_error("domain_of_its_length", t);
    buf[0] = (limb)small;
    *size = small ? 1 : 0;
    return TRUE;
  }
  if ( !PL_get_mpz(t, big) )
    return PL_type_error("integer", t);
  *size = mpz_size(big);
  if ( mpz_sgn(big) < 0 || *size > room )
    return PL_domain_error("domain_of_its_length", t);   /* the masks are that long */
  memcpy(buf, mpz_limbs_read(big), *size * sizeof(limb));
  return TRUE;
}

static int
put_limbs(mpz_t big, term_t t, const limb *buf, size_t size)
{ if ( size == 0 || (size == 1 && buf[0] <= (limb)INT64_MAX) )
    return PL_put_int64(t, size ? (int64_t)buf[0] : 0);
  memcpy(mpz_limbs_write(big, (mp_size_t)size), buf, size * sizeof(limb));
  mpz_limbs_finish(big, (mp_size_t)size);
  return PL_put_variable(t) && PL_unify_mpz(t, big);
}

/* What one propagation reads and changes. */
typedef struct
{ kernel_t *k;
  scratch_t *sc;
  term_t dom, open, sup;        /* the net's */
  term_t a, b;                  /* to read them with */
} prop_t;

/* Site s's domain, read from Dom once per propagation. */
static int
load_domain(prop_t *p, int s)
{ state_t *st = &p->sc->states[s];

  if ( st->loaded )
    return TRUE;
  if ( !PL_get_arg(s + 1, p->dom, p->a) ||
       !get_limbs(p->sc->big, p->a, st->dom, p->k->sites[s].limbs, &st->size) )
    return FALSE;
  st->loaded = TRUE;
  p->sc->touched[p->sc->ntouched++] = s;
  return TRUE;
}

/* Site s's support: none, or sup(Prev, Lives) (then Lives per link). */
static int
load_support(prop_t *p, int s)
{ state_t *st = &p->sc->states[s];
  const site_t *site = &p->k->sites[s];
  atom_t none;

  if ( st->sup_loaded )
    return TRUE;
  if ( !PL_get_arg(s + 1, p->sup, p->a) )
    return PL_domain_error("sup", p->sup);
  if ( PL_get_atom(p->a, &none) && none == ATOM_none )
  { st->has_prev = FALSE;
    for (int l = 0; l < site->nlinks; l++)
      st->lives[l] = site->links[l].letters;
  } else
  { term_t list = p->b;
    if ( !PL_is_functor(p->a, FUNCTOR_sup2) )
      return PL_domain_error("sup", p->a);
    _PL_get_arg(2, p->a, list);
    for (int l = 0; l < site->nlinks; l++)
    { int64_t live;
      if ( !PL_get_list(list, p->a, list) || !PL_get_int64_ex(p->a, &live) )
        return PL_domain_error("lives", list);
      st->lives[l] = (uint64_t)live;
    }
    if ( !PL_get_arg(s + 1, p->sup, p->a) || !PL_get_arg(1, p->a, p->a) ||
         !get_limbs(p->sc->big, p->a, st->prev, site->limbs, &st->prev_size) )
      return FALSE;
    st->has_prev = TRUE;
  }
  st->sup_loaded = TRUE;
  return TRUE;
}

static int
is_open(prop_t *p, int t)
{ state_t *st = &p->sc->states[t];

  if ( st->open < 0 )
  { atom_t flag;
    st->open = PL_get_arg(t + 1, p->open, p->a) && PL_get_atom(p->a, &flag) &&
               flag == ATOM_true;
  }
  return st->open;
}

/* (Where GCC can, with the CPU's popcnt when it has one, chosen at load:
   a build runs on any x86-64.) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("popcnt", "default")))
#endif
static int64_t
popcount(const limb *d, size_t size)
{ int64_t count = 0;

  for (size_t w = 0; w < size; w++)
    count += __builtin_popcountll(d[w]);
  return count;
}

/* The highest bit where a and b differ (a and b not equal). */
static int64_t
highest_difference(const limb *a, size_t na, const limb *b, size_t nb)
{ for (size_t w = na > nb ? na : nb; w-- > 0; )
  { limb x = (w < na ? a[w] : 0) ^ (w < nb ? b[w] : 0);
    if ( x )
      return (int64_t)w * 64 + 63 - __builtin_clzll(x);
  }
  return -1;
}

/* Queue site t unless it is queued. */
static void
enqueue(scratch_t *sc, size_t *tail, int t)
{ if ( !sc->states[t].queued )
  { sc->states[t].queued = TRUE;
    sc->queue[*tail] = t;
    *tail = (*tail + 1) % sc->queue_room;
  }
}

/* The revision from site s, as arcs.pl's revise_site/5: the source worked
   out as its source/8 does (none when the domain is the one s was last
   revised from, the word lost when one went since, else the one word, the
   few words or the whole domain), then each link to an open site; a
   neighbour that lost words is queued.  *wipe the crossing of the first
   link whose neighbour lost them all (-1: none). */
static int
revise_site(prop_t *p, int s, size_t *tail, int *wipe)
{ kernel_t *k = p->k;
  site_t *site = &k->sites[s];
  state_t *st = &p->sc->states[s];
  source_t src;
  int64_t count;

  if ( !load_domain(p, s) || !load_support(p, s) )
    return FALSE;
  src.ds = st->dom;
  src.ds_size = st->size;
  src.nz = p->sc->nz_source;
  src.nnz = nonzero_limbs(src.ds, src.ds_size, p->sc->nz_source);
  src.nwords = 0;
  count = popcount(st->dom, st->size);
  if ( st->has_prev && st->prev_size == st->size &&
       memcmp(st->prev, st->dom, st->size * sizeof(limb)) == 0 )
    return TRUE;                /* unchanged: nothing to revise */
  if ( st->has_prev && popcount(st->prev, st->prev_size) - count == 1 )
  { int64_t K = highest_difference(st->prev, st->prev_size, st->dom, st->size);
    if ( K < 0 || K >= site->nwords || !site->nums )
      return PL_domain_error("word_of_site_length", p->sup);
    src.kind = SOURCE_LOST;
    src.nwords = 1;
    src.words[0] = site->nums + K * (int64_t)site->length;
  } else if ( count >= 1 && count <= FEW_WORDS )
  { src.kind = count == 1 ? SOURCE_WORD : SOURCE_FEW;
    for (size_t i = 0; i < src.nnz; i++)
    { size_t w = src.nz[i];
      for (limb bits = src.ds[w]; bits; bits &= bits - 1)
      { int64_t K = (int64_t)w * 64 + __builtin_ctzll(bits);
        if ( K >= site->nwords || !site->nums )
          return PL_domain_error("word_of_site_length", p->dom);
        src.words[src.nwords++] = site->nums + K * (int64_t)site->length;
      }
    }
  } else
    src.kind = SOURCE_DOMAIN;
  for (int l = 0; l < site->nlinks; l++)
  { link_t *link = &site->links[l];
    uint64_t live = st->lives[l] & link->letters;  /* a live set holds no other letter */

    if ( is_open(p, link->t) )
    { state_t *n = &p->sc->states[link->t];
      if ( !load_domain(p, link->t) )
        return FALSE;
      if ( revise_link(&src, link, n, &live, p->sc->nz_other) )
      { if ( n->size == 0 )
        { *wipe = link->x;
          return TRUE;
        }
        n->dirty = TRUE;
        enqueue(p->sc, tail, link->t);
      }
    }
    st->lives[l] = live;
  }
  memcpy(st->prev, st->dom, st->size * sizeof(limb));
  st->prev_size = st->size;
  st->has_prev = TRUE;
  st->revised = TRUE;
  return TRUE;
}

/* Updates: per site touched whose domain or support changed,
   u(S1, Domain, Support): Domain its new domain or same, Support
   sup(Last, Lives) from its last revision or keep. */
static int
unify_updates(prop_t *p, term_t updates)
{ scratch_t *sc = p->sc;
  term_t tail = PL_copy_term_ref(updates), head = PL_new_term_ref();
  term_t d = PL_new_term_ref(), last = PL_new_term_ref(), u = PL_new_term_ref();
  term_t lives = PL_new_term_ref(), live = PL_new_term_ref();

  for (int i = 0; i < sc->ntouched; i++)
  { int s = sc->touched[i];
    state_t *st = &sc->states[s];
    const site_t *site = &p->k->sites[s];

    if ( !st->dirty && !st->revised )
      continue;
    if ( st->dirty )
    { if ( !put_limbs(sc->big, d, st->dom, st->size) )
        return FALSE;
    } else
      PL_put_atom(d, ATOM_same);
    if ( st->revised )
    { if ( st->prev_size == st->size &&
           memcmp(st->prev, st->dom, st->size * sizeof(limb)) == 0 )
      { if ( !(st->dirty ? PL_put_term(last, d) : PL_get_arg(s + 1, p->dom, last)) )
          return FALSE;
      } else if ( !put_limbs(sc->big, last, st->prev, st->prev_size) )
        return FALSE;
      PL_put_nil(lives);
      for (int l = site->nlinks; l-- > 0; )
      { if ( !PL_put_int64(live, (int64_t)st->lives[l]) || !PL_cons_list(lives, live, lives) )
          return FALSE;
      }
      if ( !PL_cons_functor(u, FUNCTOR_sup2, last, lives) )
        return FALSE;
    } else
      PL_put_atom(u, ATOM_keep);
    if ( !PL_unify_list(tail, head, tail) ||
         !PL_unify_term(head, PL_FUNCTOR, FUNCTOR_u3, PL_INT, s + 1, PL_TERM, d, PL_TERM, u) )
      return FALSE;
  }
  return PL_unify_nil(tail);
}

/* The word K taken out of each open site of the list same that has it
   (queued then, in that order), as arcs.pl's used_up/6: FALSE on an error,
   else TRUE, *emptied when a site lost its last word (then stop). */
static int
use_up(prop_t *p, int64_t K, term_t same, size_t *tail, int *emptied)
{ term_t list = PL_copy_term_ref(same), head = PL_new_term_ref();

  while ( PL_get_list(list, head, list) )
  { int t;
    state_t *st;
    size_t w = (size_t)(K >> 6);
    limb bit = (limb)1 << (K & 63);

    if ( !PL_get_integer_ex(head, &t) )
      return FALSE;
    if ( t < 0 || t >= p->k->nsites )
      return PL_domain_error("site", head);
    if ( !is_open(p, t) )
      continue;
    if ( !load_domain(p, t) )
      return FALSE;
    st = &p->sc->states[t];
    if ( w >= st->size || !(st->dom[w] & bit) )
      continue;
    st->dom[w] &= ~bit;
    trim(st);
    if ( st->size == 0 )
    { *emptied = TRUE;
      return TRUE;
    }
    st->dirty = TRUE;
    enqueue(p->sc, tail, t);
  }
  return TRUE;
}

/* A propagation: from the sites of the list changed (placed < 0), or from
   site placed that took word K, its last copy, and from the sites of the
   list same that it leaves (use_up/5); see propagate/7 and place/9. */
static int
propagation(term_t handle, term_t changed, int placed, int64_t K, term_t same,
            term_t dom, term_t open, term_t sup, term_t updates, term_t wipe)
{ kernel_t *k = NULL;
  scratch_t *sc, *own = NULL;
  prop_t p;
  term_t list = PL_copy_term_ref(changed), head = PL_new_term_ref();
  size_t nchanged, head_at = 0, tail = 0;
  int x = -1, emptied = FALSE, rc = FALSE;

  if ( !get_kernel(handle, &k) )
    return FALSE;
  if ( PL_skip_list(changed, 0, &nchanged) != PL_LIST )
    return PL_type_error("list", changed);
  if ( placed >= k->nsites || K < 0 )
    return PL_domain_error("placed_word", handle);
  if ( __atomic_exchange_n(&k->busy, 1, __ATOMIC_ACQUIRE) )
  { if ( !(own = new_scratch(k)) )  /* another thread is propagating on this net */
      return FALSE;
    sc = own;
  } else
    sc = k->scratch;
  if ( sc->queue_room < nchanged + 2 * (size_t)k->nsites + 2 )
  { size_t room = nchanged + 2 * (size_t)k->nsites + 2;
    int *queue = realloc(sc->queue, room * sizeof(int));
    if ( !queue )
    { PL_resource_error("memory");
      goto out;
    }
    sc->queue = queue;
    sc->queue_room = room;
  }
  for (int s = 0; s < k->nsites; s++)
  { state_t *st = &sc->states[s];
    st->loaded = st->sup_loaded = st->dirty = st->revised = st->queued = FALSE;
    st->open = -1;
  }
  sc->ntouched = 0;
  p.k = k;
  p.sc = sc;
  p.dom = dom;
  p.open = open;
  p.sup = sup;
  p.a = PL_new_term_ref();
  p.b = PL_new_term_ref();
  while ( PL_get_list(list, head, list) )
  { int s;
    if ( !PL_get_integer_ex(head, &s) )
      goto out;
    if ( s < 0 || s >= k->nsites )
    { PL_domain_error("site", head);
      goto out;
    }
    sc->states[s].queued = TRUE;        /* queued as listed, even twice */
    sc->queue[tail++] = s;
  }
  if ( placed >= 0 )
  { sc->states[placed].queued = TRUE;
    sc->queue[tail++] = placed;
    if ( !use_up(&p, K, same, &tail, &emptied) )
      goto out;
  }
  while ( head_at != tail && x < 0 && !emptied )
  { int s = sc->queue[head_at];
    head_at = (head_at + 1) % sc->queue_room;
    sc->states[s].queued = FALSE;
    if ( !revise_site(&p, s, &tail, &x) )
      goto out;
  }
  if ( emptied )
    rc = PL_unify_nil(updates) && PL_unify_atom(wipe, ATOM_used_up);
  else if ( x >= 0 )
    rc = PL_unify_nil(updates) && PL_unify_integer(wipe, x);
  else
    rc = unify_updates(&p, updates) && PL_unify_atom(wipe, ATOM_none);
out:
  if ( own )
    free_scratch(own);
  else
    __atomic_store_n(&k->busy, 0, __ATOMIC_RELEASE);
  return rc;
}

/* propagate(+Kernel, +Changed, +Dom, +Open, +Sup, -Updates, -Wipe): arcs.pl's
   propagate/2 on the kernel's net: from the sites Changed, a FIFO queue
   of sites each queued once at a time, each revised as revise_site/4
   says, to the fixpoint or a wipe-out.  Dom, Open and Sup are the net's,
   read here and changed by the caller: Wipe none and Updates as
   unify_updates/2 says, or Wipe the crossing X whose neighbour lost every
   word (Updates []). */
static foreign_t
propagate(term_t handle, term_t changed, term_t dom, term_t open, term_t sup,
          term_t updates, term_t wipe)
{ return propagation(handle, changed, -1, 0, 0, dom, open, sup, updates, wipe);
}

/* place(+Kernel, +S, +K, +Same, +Dom, +Open, +Sup, -Updates, -Wipe): site
   S (closed, its domain word K alone) took the last copy of word K: K
   leaves each open site of Same (in order) that has it, and the changes
   propagate from S and those sites, as arcs.pl's place/3 does with
   used_up/6 and propagate/2.  Wipe is used_up when a site of Same lost its
   last word so (no crossing to weigh), else as propagate/7's. */
static foreign_t
place(term_t handle, term_t site, term_t word, term_t same, term_t dom, term_t open,
      term_t sup, term_t updates, term_t wipe)
{ int s;
  int64_t K;
  term_t none = PL_new_term_ref();

  if ( !PL_get_integer_ex(site, &s) || !PL_get_int64_ex(word, &K) )
    return FALSE;
  if ( s < 0 )
    return PL_domain_error("site", site);
  PL_put_nil(none);
  return propagation(handle, none, s, K, same, dom, open, sup, updates, wipe);
}

/* few_words(-N): FEW_WORDS, which must be arcs.pl's few_words/1 (a test
   says so). */
static foreign_t
few_words(term_t n)
{ return PL_unify_integer(n, FEW_WORDS);
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
  ATOM_same = PL_new_atom("same");
  ATOM_keep = PL_new_atom("keep");
  ATOM_used_up = PL_new_atom("used_up");
  FUNCTOR_table3 = PL_new_functor(PL_new_atom("table"), 3);
  FUNCTOR_sup2 = PL_new_functor(PL_new_atom("sup"), 2);
  FUNCTOR_u3 = PL_new_functor(PL_new_atom("u"), 3);
  PL_register_foreign_in_module("arcs_kernel", "kernel_net", 5, kernel_net, 0);
  PL_register_foreign_in_module("arcs_kernel", "propagate", 7, propagate, 0);
  PL_register_foreign_in_module("arcs_kernel", "place", 9, place, 0);
  PL_register_foreign_in_module("arcs_kernel", "built_from", 2, built_from, 0);
  PL_register_foreign_in_module("arcs_kernel", "kernel_bytes", 1, kernel_bytes, 0);
  PL_register_foreign_in_module("arcs_kernel", "few_words", 1, few_words, 0);
}
