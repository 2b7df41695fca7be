"""The mutants of bench/mutation/run.py: each a small wrong change a
reviewer could miss, in code whose promise a test states (issue 35). Fields:
  id           unique name
  file         the source file, from the repository's root
  original     text that occurs exactly once in the file
  replacement  what it becomes
  tests        the ctest names that must fail with it
  ci           in the sample CI runs (fast C tests only)
  emu          device code: only in an emulated build (-DEVOLVE_CUDA_EMU=ON)
When a change to the sources moves an original text, run.py --list names the
stale mutant: update its text (the same mutation) here."""


def mutant(id, file, original, replacement, tests, ci=False, emu=False):  # noqa: A002
    return {"id": id, "file": file, "original": original, "replacement": replacement, "tests": tests, "ci": ci,
            "emu": emu}


MUTANTS = [
    # ga/ga_stop.c: the budget counts local search's sweeps; the stop order
    mutant("stop-budget-ls", "ga/ga_stop.c", "in->evaluations + in->ls_evaluations >= s->max_evaluations",
           "in->evaluations >= s->max_evaluations", ["test_ga_stop"], ci=True),
    mutant("stop-budget-strict", "ga/ga_stop.c", "in->evaluations + in->ls_evaluations >= s->max_evaluations",
           "in->evaluations + in->ls_evaluations > s->max_evaluations", ["test_ga_stop"]),
    mutant("stop-generations", "ga/ga_stop.c", "in->generation + 1 >= s->generations",
           "in->generation >= s->generations", ["test_ga_stop"]),
    mutant("stop-exhausted", "ga/ga_stop.c", "in->lattice_size && in->evaluations >= in->lattice_size",
           "in->lattice_size && in->evaluations > in->lattice_size", ["test_ga_stop"]),
    # fitness/baseline.c: the loosest point
    mutant("loosest-max-first", "fitness/baseline.c",
           "(p->role == PARAM_FILTER && p->dir == FILTER_MAX) || param_role_can_off(p->role)",
           "param_role_can_off(p->role)", ["test_baselines_loosest"]),
    mutant("loosest-all-last", "fitness/baseline.c",
           "(p->role == PARAM_FILTER && p->dir == FILTER_MAX) || param_role_can_off(p->role)",
           "p->role == PARAM_FILTER || param_role_can_off(p->role)",
           ["test_baselines_loosest", "test_baselines"]),
    mutant("log-is-loosest", "fitness/baseline.c", "    if (kind != BASELINE_LOOSEST)\n        return;\n", "\n",
           ["test_baselines"]),
    # runs/session_baseline.c: loosest dropped only when equal to the log on every part
    mutant("loosest-drop-in-sample", "runs/session_baseline.c",
           "    if (!x->val)\n        return 1;\n    return memcmp(", "    return 1;\n    return memcmp(",
           ["test_baselines_loosest"]),
    mutant("loosest-never-dropped", "runs/session_baseline.c",
           "kind == BASELINE_LOOSEST && same_result(b, 0, b->n - 1)",
           "kind == BASELINE_LOOSEST && s->validating == -1 && same_result(b, 0, b->n - 1)",
           ["test_baselines_loosest"]),
    # fitness/validation.c, runs/walk_side.c: validation.min_trades 0 is a count
    mutant("val-min-zero", "fitness/validation.c", "    if (v->min_trades >= 0)\n        part.min_trades",
           "    if (v->min_trades > 0)\n        part.min_trades", ["test_validation_min_trades"]),
    mutant("val-min-ignored", "fitness/validation.c", "    if (v->min_trades >= 0)\n        part.min_trades",
           "    if (v->min_trades < -1)\n        part.min_trades", ["test_validation_min_trades"]),
    mutant("walk-min-zero", "runs/walk_side.c",
           "    objective_prep_t o = s->prob.obj;\n    if (s->cfg.validation.min_trades >= 0)",
           "    objective_prep_t o = s->prob.obj;\n    if (s->cfg.validation.min_trades > 0)", ["test_walk_forward"]),
    mutant("walk-cfg-min-zero", "runs/walk_side.c",
           "    objective_cfg_t o = s->cfg.objective;\n    if (s->cfg.validation.min_trades >= 0)",
           "    objective_cfg_t o = s->cfg.objective;\n    if (s->cfg.validation.min_trades > 0)",
           ["test_walk_forward"]),
    # io/output_guard.c: one file by two paths
    mutant("guard-text-only", "io/output_guard.c",
           "    if (strcmp(a, b) == 0 || plat_same_file(a, b))\n        return 1;\n    if (strcmp(plat_basename",
           "    if (a != b)\n        return strcmp(a, b) == 0;\n    if (strcmp(plat_basename", ["test_output_paths"],
           ci=True),
    mutant("guard-no-folder", "io/output_guard.c", "(strcmp(da, db) == 0 || plat_same_file(da, db))",
           "strcmp(da, db) == 0", ["test_output_paths"]),
    mutant("guard-no-name", "io/output_guard.c",
           "    if (strcmp(plat_basename(a), plat_basename(b)) != 0)\n        return 0;\n", "", ["test_output_paths"]),
    # common/plat_lock.c: only OUT.tmp.<pid> is evolve's
    mutant("temps-any-suffix", "common/plat_lock.c",
           '!*pid ||\n            strspn(pid, "0123456789") != strlen(pid)', "!*pid", ["test_output_paths"], ci=True),
    mutant("temps-any-dot", "common/plat_lock.c", 'strncmp(names[i] + len, ".tmp.", 5) != 0 || ', "",
           ["test_output_paths"]),
    mutant("temps-other-output", "common/plat_lock.c", "if (strncmp(names[i], base, len) != 0 || ", "if (",
           ["test_output_paths"]),
    # report/report_html.c: each top-table cell from its own source
    mutant("page-holdout-trades", "report/report_html.c", "td_count(f, w->out_of_sample.r.trades);",
           "td_count(f, l->e[i].r.trades);", ["test_report_page"]),
    mutant("page-plateau", "report/report_html.c", "td_num(f, w->plateau.mean, 0);",
           "td_num(f, w->oos_stats.total_return, 0);", ["test_report_page"]),
    mutant("page-worst-fold", "report/report_html.c", "html_td_num(f, v->row[i].worst_fold, !ok);",
           "html_td_num(f, v->row[i].fold[0].value, !ok);", ["test_report_page"]),
    mutant("page-base-holdout-trades", "report/report_html.c", "td_count(f, o ? o->r.trades : 0);",
           "td_count(f, x->e[0].r.trades);", ["test_report_page"]),
    mutant("page-stats-holdout", "report/report_html.c",
           "const trade_stats_t *s = holdout ? &l->val->row[i].oos_stats : &l->stats[i];",
           "const trade_stats_t *s = &l->stats[i];", ["test_report_page"]),
    # fitness/dominance.c: the 128-bit carry of the suffix sums
    mutant("dominance-carry", "fitness/dominance.c", "hi[i] += shi[i] + (l < lo[i] ? 1u : 0u);", "hi[i] += shi[i];",
           ["test_dominance_carry"], ci=True),
    mutant("dominance-carry-late", "fitness/dominance.c",
           "        hi[i] += shi[i] + (l < lo[i] ? 1u : 0u);\n        lo[i] = l;",
           "        lo[i] = l;\n        hi[i] += shi[i] + (l < lo[i] ? 1u : 0u);", ["test_dominance_carry"]),
    mutant("dominance-pos-rows", "fitness/dominance.c",
           "                if (c->pos)\n                    add_row(c->pos + d, c->pos + s, inner);\n", "",
           ["test_fitness_random", "test_dominance_folds"]),
    # io/json_summary.c: --validate's top rows deflated by their own search's trials
    mutant("json-trials-ga", "io/json_summary.c",
           "    if (top->val && top->val->trials >= 1.0)\n        return top->val->trials;\n", "",
           ["test_report_page"]),
    # kernels/fitness.cu: the doctor's timing launch stays within one launch (and the batch buffers)
    mutant("time-launch-unclamped", "kernels/fitness.cu",
           "    if (count > e->sizes.launch_max)\n        count = e->sizes.launch_max;\n"
           "    if ((st = batch_buffers(e, err)) != EV_OK)\n        return st;\n"
           "    if (count > e->sizes.launch_max) /* the batch may have shrunk */\n"
           "        count = e->sizes.launch_max;\n",
           "    if ((st = batch_buffers(e, err)) != EV_OK)\n        return st;\n", ["test_cuda_parity"], emu=True),
    # kernels/strategy_device.cu: a group's run states are indexed from its first genome
    mutant("strategy-group-runs", "kernels/strategy_device.cu", "        r = runs[g - first];", "        r = runs[g];",
           ["test_strategy_backends_gpu"], emu=True),
    mutant("strategy-group-store", "kernels/strategy_device.cu", "        runs[g - first] = r;",
           "        runs[g % STRAT_THREADS] = r;", ["test_strategy_backends_gpu"], emu=True),
    # fitness/slices.h, fitness/slices_build.c: the bit-sliced sums (issue 34)
    mutant("slices-plane-dropped", "fitness/slices.h", "    for (int i = 0; i < width; i++) {",
           "    for (int i = 1; i < width; i++) {", ["test_slices", "test_slices_runs"], ci=True),
    mutant("slices-shift-ignored", "fitness/slices.h", "s[k] = slices_weigh(cnt + p, c->width[k], c->shift[k]);",
           "s[k] = slices_weigh(cnt + p, c->width[k], 0);", ["test_slices", "test_slices_runs"]),
    mutant("slices-pf-sum", "fitness/slices.h", "a->sum = (int64_t)(s[SLICE_POS].lo - s[SLICE_NEG].lo);",
           "a->sum = (int64_t)s[SLICE_POS].lo;", ["test_slices"]),
    mutant("slices-sum-base", "fitness/slices.h", "(uint64_t)n * (uint64_t)c->base_q",
           "(uint64_t)c->base_q", ["test_slices", "test_slices_runs"]),
    mutant("slices-square-high", "fitness/slices.h",
           "x.hi = b == 0 ? 0 : b < 64 ? cnt[i] >> (64 - b) : cnt[i] << (b - 64);",
           "x.hi = b == 0 ? 0 : b < 64 ? cnt[i] >> (64 - b) : 0;", ["test_slices"]),
]
