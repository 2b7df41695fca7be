/* The CUDA backend's GA state (cuda_ga_t of kernels/cuda_api.h) and the
 * internal interface between the GA's .cu files. C++ only; the C world sees
 * the opaque type.
 *
 *   ga_state.cu     open/close and sizing, generation 0, breeding, set/download
 *   ga_evaluate.cu  dedup by sorting, cache lookups, new genomes through the
 *                   tables evaluator, insertion, scatter, the new top-K
 *   ga_rank.cu      per-island ranking and the generation's summaries
 *   ga_table.cu     the device dedup cache: growth, export, import
 *   ga_sort.cu      the one GA file that uses CUB (radix sorts and scans)
 *
 * Shapes: P = population, G = genes, W = index words (1..4). Every array is
 * device memory unless named *_host. Everything runs on the legacy default
 * stream, so kernels and copies are ordered without events. */
#ifndef EVOLVE_GA_DEVICE_CUH
#define EVOLVE_GA_DEVICE_CUH

#include <stddef.h>
#include <stdint.h>

#include "operators/ga_types.h"
#include "kernels/cuda_api.h"
#include "kernels/cuda_check.h"
#include "kernels/eval_device.cuh"

enum { GA_THREADS = 256 };

/* One device cache slot's result: eval_result_t with its padding word used
 * as the slot's claim flag (0 free, 1 taken), so a slot takes 8 W + 24 bytes
 * as ga_cache_capacity assumes. Read back as eval_result_t with pad_ = 0. */
typedef struct {
    double fitness;
    int64_t trades;
    int32_t feasible;
    uint32_t used;
} ga_slot_t;
static_assert(sizeof(ga_slot_t) == sizeof(eval_result_t), "a slot holds an eval_result_t");
static_assert(offsetof(ga_slot_t, fitness) == offsetof(eval_result_t, fitness) &&
                  offsetof(ga_slot_t, trades) == offsetof(eval_result_t, trades) &&
                  offsetof(ga_slot_t, feasible) == offsetof(eval_result_t, feasible) &&
                  offsetof(ga_slot_t, used) == offsetof(eval_result_t, pad_),
              "ga_slot_t mirrors eval_result_t");

/* The device dedup cache (operators/dedup_table.h's rules). */
typedef struct {
    int32_t words;
    uint64_t slots;     /* power of two */
    uint64_t max_slots; /* dedup_max_slots(capacity) */
    uint64_t count;     /* entries held (the host's count: every insert is counted here) */
    uint64_t capacity;  /* the most entries held (ga_plan_t.cache_capacity) */
    uint64_t *keys;     /* [slots][words], all ones = empty */
    ga_slot_t *vals;    /* [slots] */
} ga_table_t;

/* The dedup pass's counts, written by its compact_kernel's last thread and
 * read by the host. */
typedef struct {
    unsigned long long distinct; /* groups (distinct genomes) */
    unsigned long long n_new;    /* groups not in the cache */
} ga_counts_t;

/* ga_rank's fitness summary (ga_rank_out_t without the arrays). */
typedef struct {
    unsigned long long feasible;
    double best, median;
} ga_summary_t;

struct ga_state {   /* ga_state_t of ga/backend.h: the CUDA GA ops take it as is */
    ga_plan_t plan; /* host copy; plan.evaluate is not used */
    cuda_eval_t *e; /* the backend's tables evaluator (not owned): tables and launch sizes */
    uint32_t pop;
    int32_t n_genes, words;
    int32_t index_bits;  /* radix bits of the most significant index word of the lattice's indices */
    int32_t island_bits; /* radix bits of an island number */
    int has_population, evaluated, ranked;

    /* the population */
    uint16_t *genes;         /* [G][P] current */
    uint16_t *next;          /* [G][P] being bred (swapped with genes) */
    int32_t *parents;        /* [2][P] of the current population; -1 where none */
    eval_result_t *results;  /* [P] valid once evaluated */
    uint64_t *index;         /* [W][P] linear index words, least significant first; valid once evaluated */
    uint32_t *sorted;        /* [P] individuals by (index, individual); valid once evaluated */
    uint32_t *order;         /* [P] each island's individuals in rank order; valid once ranked */
    breed_island_t *islands; /* [islands] the plans of the generation being bred */

    /* scratch of one op */
    uint64_t *key_a, *key_b;  /* [P] radix keys in/out */
    uint32_t *val_a, *val_b;  /* [P] radix values in/out */
    uint32_t *flag, *incl;    /* [P] island keys and their sorted copy (rank) */
    uint32_t *heads;          /* [P] group g's head: its first sorted position */
    uint32_t *group;          /* [P] each sorted position's group */
    uint32_t *new_pos;        /* [P] positions of the new groups' heads, ascending */
    eval_result_t *res_head;  /* [P] at a head position: its group's result */
    eval_result_t *new_res;   /* [P] results of the new genomes (compact order), or imported values */
    uint16_t *new_genes;      /* [G][P] the new genomes, compact (stride P) */
    ga_counts_t *counts;      /* [1] */
    ga_hof_entry_t *top;      /* [top_k] the generation's new top-K, best first */
    ga_hof_entry_t *top_host; /* [top_k] host staging for top */
    void *temp;               /* CUB scratch for P items (ga_cub_temp_bytes) */
    size_t temp_bytes;

    /* ga_rank's outputs in one device block (ga_rank_layout), copied back
     * once a generation into its pinned host mirror; the views point into it */
    unsigned char *rank_rec;      /* [layout.bytes] */
    unsigned char *rank_host;     /* [layout.bytes] pinned (cudaMallocHost) */
    ga_summary_t *summary;        /* [1] */
    uint32_t *island_unique;      /* [islands] */
    uint32_t *gene_counts;        /* [gene_values] */
    double *stats_values;         /* [P] fitness, NaN where infeasible (ga_mean_std_of) */
    breed_island_t *islands_host; /* [islands] pinned staging of breed's plans (an asynchronous copy) */

    ga_table_t table;
};

/* Where ga_rank's outputs lie in the rank record (bytes from its start). */
typedef struct {
    uint64_t unique, counts, values, bytes;
} ga_rank_layout_t;
static inline ga_rank_layout_t ga_rank_layout(uint64_t islands, uint64_t gene_values, uint64_t pop)
{
    ga_rank_layout_t l;
    l.unique = sizeof(ga_summary_t);
    l.counts = l.unique + 4u * islands;
    l.values = (l.counts + 4u * gene_values + 7u) / 8u * 8u; /* doubles: 8-byte aligned */
    l.bytes = l.values + 8u * pop;
    return l;
}

/* ---- ga_sort.cu: CUB on plain pointers; errors as cudaError_t, never an exception */

/* Scratch bytes that covers every call below with up to n items. */
cudaError_t ga_cub_temp_bytes(uint32_t n, size_t *bytes);
/* Stable radix sort of (key, value) pairs by bits [0, end_bit) of the key,
 * ascending or descending. */
cudaError_t ga_cub_sort_u64(void *temp, size_t temp_bytes, const uint64_t *kin, uint64_t *kout, const uint32_t *vin,
                            uint32_t *vout, uint32_t n, int end_bit, int descending);
cudaError_t ga_cub_sort_u32(void *temp, size_t temp_bytes, const uint32_t *kin, uint32_t *kout, const uint32_t *vin,
                            uint32_t *vout, uint32_t n, int end_bit);
/* Inclusive prefix sum. */
cudaError_t ga_cub_sum_u64(void *temp, size_t temp_bytes, const uint64_t *in, uint64_t *out, uint32_t n);

/* ---- ga_evaluate.cu: the dedup pass, shared by evaluate and cache import */

/* What ga_dedup_pass expects of its caller beside the index words: g->val_a
 * = the identity on [0, n) (evaluate's index_kernel writes it; the cache
 * import launches this). */
ev_status ga_dedup_prepare(cuda_ga_t *g, uint32_t n, ev_error *err);
/* Items [0, n) (n <= P) with their index words in g->index (stride P),
 * prepared (ga_dedup_prepare):
 * g->sorted = the items by (index, item), grouped; each group's head looked
 * up in the cache once (hits into g->res_head); g->new_pos = heads of the
 * groups not in the cache; *distinct and *n_new on the host. index_bits:
 * radix bits of the top word (64 when the indices may be anything). */
ev_status ga_dedup_pass(cuda_ga_t *g, uint32_t n, int32_t index_bits, uint64_t *distinct, uint64_t *n_new,
                        ev_error *err);
/* Inserts the n_new new groups of the last dedup pass (the caller checked the
 * capacity; the table grows as needed) with results vals[t] for the t-th new
 * group (by_item = 0) or vals[item of its head] (by_item = 1); records them
 * in g->res_head. with_top: also (rank_key, t) into key_a/val_a [n_new]. */
ev_status ga_insert_new(cuda_ga_t *g, uint64_t n_new, const eval_result_t *vals, int by_item, int with_top,
                        ev_error *err);

/* ---- ga_table.cu */

/* An empty table of ga_table_first_slots(capacity, expected) slots. */
ev_status ga_table_init(ga_table_t *t, int32_t words, uint64_t capacity, uint64_t expected, ev_error *err);
void ga_table_free(ga_table_t *t);
/* Grows (rehashing on the device) so that `need` entries fit at half load;
 * need <= capacity. Out of device memory: EV_ENOMEM saying what to lower. */
ev_status ga_table_reserve(ga_table_t *t, uint64_t need, ev_error *err);
/* Device bytes of a table of `slots` slots (keys and results). */
uint64_t ga_table_bytes(int32_t words, uint64_t slots);
/* Slots of the first table: `expected` entries at half load, at most
 * dedup_max_slots(capacity) (cuda_ga_open counts them before allocating). */
uint64_t ga_table_first_slots(uint64_t capacity, uint64_t expected);

/* Blocks of GA_THREADS for one thread per item (n <= 2^31, so < 2^23 blocks). */
static inline unsigned ga_blocks(uint64_t n)
{
    uint64_t b = (n + GA_THREADS - 1) / GA_THREADS;
    return (unsigned)(b ? b : 1);
}

/* Radix bits of x: the position of its highest set bit + 1 (at least 1). */
static inline int32_t ga_bits_of(uint64_t x)
{
    int32_t b = 1;
    while (b < 64 && (x >> b) != 0)
        b++;
    return b;
}

#endif
