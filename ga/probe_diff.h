/* The parity probe's two backends side by side and the texts of a
 * difference (the first one found, naming the genome with its parameter
 * values and both backends' values). Internal to the probe
 * (ga/backend_probe.c, ga/backend_probe_ga.c). */
#ifndef EVOLVE_PROBE_DIFF_H
#define EVOLVE_PROBE_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "ga/backend_probe.h"

typedef struct {
    const backend_ops_t *ops[2]; /* 0: the reference, 1: the backend under test */
    backend_t *b[2];
    const fit_problem_t *p;
    const fit_tables_t *t;
    backend_probe_t *out;
    uint64_t rng;
} probe_t;

/* "(name=value, ...)" of a genome's genes. */
void probe_genome_text(const fit_problem_t *p, const uint16_t *genes, char *buf, size_t n);
/* "fitness F, N trade(s) kept, feasible" of a result. */
void probe_result_text(const eval_result_t *r, char *buf, size_t n);
/* Records the first difference (later ones are dropped); returns 1. */
int probe_mismatch(probe_t *x, const char *fmt, ...) EV_PRINTF(2, 3);
/* An error of the backend under test at `step`: a mismatch that says so. */
int probe_test_failed(probe_t *x, const char *step, const ev_error *e);
/* 1 when two results are equal bit for bit. */
int probe_same_result(const eval_result_t *a, const eval_result_t *b);

#endif
