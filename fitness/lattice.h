/* Parameter lattices and genomes (SPEC sec. 3).
 *
 * A lattice is an ordered list of parameters, each with a finite, strictly
 * increasing list of allowed values. A genome is one uint16 gene (an index into
 * its parameter's values) per parameter; its linear index is row-major with the
 * first parameter most significant. */
#ifndef EVOLVE_LATTICE_H
#define EVOLVE_LATTICE_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "fitness/dataset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EV_MAX_PARAMS 16
#define EV_MAX_VALUES 65535 /* genes are uint16 */

/* PARAM_STRATEGY: a parameter of an indicator-signal strategy (signals/), read
 * by the strategy by its name; no feature, no level. PARAM_TRAIL,
 * PARAM_BREAKEVEN, PARAM_MAX_HOLD: the exits of SPEC sec. 4.1 (after
 * PARAM_STRATEGY: the order is the names' order in param_role_names). */
typedef enum {
    PARAM_FILTER = 0,
    PARAM_TARGET,
    PARAM_STOP,
    PARAM_STRATEGY,
    PARAM_TRAIL,
    PARAM_BREAKEVEN,
    PARAM_MAX_HOLD,
    PARAM_ROLES
} param_role;
typedef enum { FILTER_MIN = 0, FILTER_MAX } filter_dir; /* keep iff feature >= v / <= v */

typedef struct {
    char *name; /* unique within the lattice */
    param_role role;
    filter_dir dir;        /* filters only */
    char *feature;         /* filters only: the trade-log column it reads */
    int32_t feature_index; /* into dataset_t features; -1 until lattice_bind */
    uint32_t n_values;     /* 1..EV_MAX_VALUES */
    double *values;        /* strictly increasing */
    char **value_text;     /* each value as decimal text, as typed or written out from a range */
} param_t;

typedef struct {
    int32_t n_params;
    param_t *params;
    int32_t target_param;    /* position of the target parameter, -1 when there is none */
    int32_t stop_param;      /* position of the stop parameter, -1 when there is none */
    int32_t trail_param;     /* likewise: the trailing stop (SPEC sec. 4.1) */
    int32_t breakeven_param; /* the move of the stop to the entry */
    int32_t hold_param;      /* the time stop (max_hold) */
    uint64_t size;           /* number of points, valid when size_fits */
    int size_fits;           /* 1 when the size is < 2^63 (the lattice can be enumerated) */
} lattice_t;

void lattice_free(lattice_t *lat);

/* "filter", "target", "stop", "strategy", "trail", "breakeven" or "max_hold". */
const char *param_role_name(param_role r);
/* The role names in param_role order, NULL-terminated (config and run files). */
extern const char *const param_role_names[PARAM_ROLES + 1];

/* The lattice's slot for a role that a lattice holds at most once (target,
 * stop and the exits of SPEC sec. 4.1), or NULL (filter, strategy). */
int32_t *lattice_role_slot(lattice_t *lat, param_role r);
const int32_t *lattice_role_slot_of(const lattice_t *lat, param_role r);

/* Sets every role slot to -1 (none). */
void lattice_slots_clear(lattice_t *lat);

/* 1 when the lattice has a trail, breakeven or max_hold parameter. */
int lattice_has_more_exits(const lattice_t *lat);

/* The parameters' names, comma-separated, in buf[n] (cut at n), for the
 * errors that name an unknown parameter. */
void lattice_names_text(const lattice_t *lat, char *buf, size_t n);
/* 1 for the roles whose lattice may hold `off` (SPEC sec. 4.1: trail,
 * breakeven, max_hold). off is held as the value +inf (HUGE_VAL) with the
 * text "off", always the last value: the loosest, its event never happens. */
int param_role_can_off(param_role r);
/* 1 when p's last value is off. */
int param_has_off(const param_t *p);
/* Sets the gene of every parameter that holds off (genes[n_params]) to off:
 * a genome whose optional exits never fire, a target and stop strategy. */
void lattice_exits_off(const lattice_t *lat, uint16_t *genes);

/* Why value v cannot be a value of p's role (SPEC sec. 3 and 4.1), as the
 * end of a message ("a target is a take-profit percent > 0"), or NULL when it
 * can. Only the sign, range and wholeness; finiteness is checked apart. */
const char *param_value_problem(const param_t *p, double v);

/* 1 when p's values are listed by names (an enumeration such as atc's
 * robustness: value i is the i-th name, its value text), not numbers. */
int param_is_named(const param_t *p);

/* Validates roles and values (one target at most, all > 0; one stop at most,
 * all < 0; every list non-empty and strictly increasing; at most EV_MAX_PARAMS
 * parameters) and computes size/size_fits and target_param/stop_param. */
ev_status lattice_finish(lattice_t *lat, ev_error *err);

/* The first parameter whose gene in genes[n_params] is off the lattice
 * (>= its value count), or -1 when the genome is on it. Files can hold
 * anything: every genome read from one is checked before it indexes values. */
int32_t lattice_gene_outside(const lattice_t *lat, const uint16_t *genes);

/* Whether value gene of p is on an edge of its lattice that a wider lattice
 * could move: -1 the first value, +1 the last; 0 inside, or when p has fewer
 * than three values (every value is an edge), is listed by names (an
 * enumeration such as atc's robustness: nothing lies beyond it), or is a
 * filter at its loose end (a min filter's first value, a max filter's last:
 * where a config puts the filter's "off", such as adx >= 0). An exit's off
 * is never an edge, and the numbers before it are judged as a lattice of their
 * own. A winner on an edge may have a better neighbour outside the lattice. */
int lattice_edge(const param_t *p, uint16_t gene);

/* Resolves each filter's feature name against the dataset. The error names the
 * parameter and lists the dataset's features. */
ev_status lattice_bind(lattice_t *lat, const dataset_t *ds, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
