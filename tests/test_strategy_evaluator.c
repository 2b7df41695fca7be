/* The strategy table's evaluator (signals/strategy.h) on a whole small
 * seller-exhaustion lattice: each distinct series computed once, the same
 * fitness with a store that keeps nothing, each genome's fitness equal to its
 * own backtest's trades summed here, the constraint ema_slow > ema_fast, and
 * the device's packed path run on the host equal to it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fitness/lattice_shape.h"
#include "fitness/objective_prep.h"
#include "io/config.h"
#include "signals/bars.h"
#include "signals/features.h"
#include "signals/se_params.h"
#include "signals/se_strategy.h"
#include "signals/strategy.h"
#include "signals/strategy_pack.h"
#include "tests/support/walk_bars.h"

static uint64_t rng_state = 88172645463325252ULL;

static const char STRATEGY_YAML[] =
    "strategy:\n"
    "  type: seller_exhaustion\n"
    "  bars: {csv: test_signals_strategy.csv}\n"
    "  costs: {fee_bp: 2, slippage_bp: 1}\n"
    "parameters:\n"
    "  - {name: ema_fast, values: [4, 8]}\n"
    "  - {name: ema_slow, values: [8, 30]}\n"
    "  - {name: z_window, values: [20, 40]}\n"
    "  - {name: atr_window, values: [5, 10]}\n"
    "  - {name: vol_z, values: [0.5, 1.0]}\n"
    "  - {name: tr_z, values: [0.0]}\n"
    "  - {name: cloc_min, values: [0.3]}\n"
    "objective: {name: total_return, min_trades: 1}\n";

/* total_return of genome p from its own store: sum of llround(pnl / entry * 100 * 1e6). */
static double own_total_return(const bars_t *b, const se_params_t *p, int64_t *n_trades)
{
    se_features_t *f = NULL;
    se_trade_t *t = NULL;
    int64_t n = 0, q = 0;
    ev_error err;
    CHECK(se_features_create(b, &f, &err) == EV_OK);
    CHECK(se_run_genome(f, p, &t, &n, &err) == EV_OK);
    for (int64_t k = 0; k < n; k++)
        q += llround(t[k].pnl / t[k].entry * 100.0 * 1e6);
    free(t);
    se_features_free(f);
    *n_trades = n;
    return (double)q / 1e6;
}

/* The device's packed path (signals/strategy_pack.h) run by the host runner,
 * its test twin: the same results as strategy_evaluate (r), in one job or in
 * jobs of 3, with the store's budget or with none; a chunk's distinct series
 * packed once each (the 4 bars, the close location, the session ends and the 11 series of
 * test_strategy_evaluator), each genome's slots bound back to the store's
 * values. */
static void test_packed_path(strategy_t *st, strategy_t *st0, const uint16_t *genes, const eval_result_t *r)
{
    const strategy_ops_t *ops = strategy_ops(st);
    strategy_t *both[2] = {st, st0};
    uint64_t which[32], m = 0;
    strategy_pack_t pk;
    ev_error err;
    for (int k = 0; k < 2; k++)
        for (uint64_t batch = 3; batch <= 32; batch += 29) {
            strategy_packed_runner_t run;
            eval_result_t rp[32];
            memset(rp, 0xA5, sizeof rp);
            strategy_pack_host_runner(&run, both[k]);
            run.batch = batch;
            CHECK(strategy_evaluate_with(both[k], NULL, genes, 32, strategy_pack_chunk, &run, rp, &err) == EV_OK);
            CHECK(memcmp(rp, r, sizeof rp) == 0);
            CHECK(run.jobs >= 1);
        }
    for (uint64_t i = 0; i < 32; i++) {
        int ok = 0;
        uint16_t g[7];
        for (int k = 0; k < 7; k++)
            g[k] = genes[k * 32 + i];
        CHECK(ops->prepare(strategy_state(st), g, &ok, &err) == EV_OK);
        if (ok)
            which[m++] = i;
    }
    CHECK(m > 16);
    CHECK(strategy_pack_build(&pk, st, genes, 32, which, (uint32_t)m, &err) == EV_OK);
    CHECK_EQ_I64(6 + 11, pk.n_bufs);
    CHECK_EQ_I64(17 * ((1500 * 8 + 63) / 64 * 64), pk.arena_bytes);
    CHECK_EQ_I64(SE_SLOTS, pk.n_slots);
    for (uint32_t g = 0; g < pk.count; g++) { /* slot k of genome g is its series' buffer */
        const void *view[SE_SLOTS];
        se_params_t p;
        uint16_t gg[7];
        for (int k = 0; k < 7; k++)
            gg[k] = genes[k * 32 + which[g]];
        CHECK(ops->device_view(strategy_state(st), gg, view, &p));
        for (int k = 0; k < SE_SLOTS; k++) {
            uint32_t b = 0;
            while (b < pk.n_bufs && pk.buf[b] != view[k])
                b++;
            CHECK(b < pk.n_bufs && pk.buf_off[b] == pk.slot_off[(uint64_t)g * SE_SLOTS + (uint64_t)k]);
        }
        { /* field by field: the struct's padding is not part of it */
            se_params_t q;
            memcpy(&q, pk.params + (size_t)g * pk.params_bytes, sizeof q);
            CHECK(p.ema_fast == q.ema_fast && p.ema_slow == q.ema_slow && p.z_window == q.z_window &&
                  p.atr_window == q.atr_window && p.max_hold == q.max_hold && p.vol_z == q.vol_z && p.tr_z == q.tr_z &&
                  p.cloc_min == q.cloc_min && p.atr_stop_mult == q.atr_stop_mult && p.reward_r == q.reward_r &&
                  p.fee_bp == q.fee_bp && p.slippage_bp == q.slippage_bp && p.flat_at_close == q.flat_at_close);
        }
    }
    strategy_pack_free(&pk);
}

static void test_strategy_evaluator(void)
{
    const char *cfg_path = "test_signals_strategy.yaml";
    config_t cfg;
    strategy_t *st = NULL, *st0 = NULL;
    lattice_shape_t shape;
    bars_t b;
    uint16_t genes[7 * 32];
    eval_result_t r[32], r0[32];
    ev_error err;
    FILE *f;
    int traded = 0;
    walk_bars(&b, 1500, 100, &rng_state);
    CHECK(bars_write_csv(&b, "test_signals_strategy.csv", &err) == EV_OK);
    f = fopen(cfg_path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(STRATEGY_YAML, f);
    fclose(f);
    if (config_load(cfg_path, &cfg, &err) != EV_OK) {
        fprintf(stderr, "config_load: %s\n", err.msg);
        CHECK(0);
        return;
    }
    CHECK_EQ_I64(32, cfg.lattice.size);
    CHECK_EQ_I64(PARAM_STRATEGY, cfg.lattice.params[0].role);
    CHECK(strategy_open(cfg.strategy_type, cfg_path, &cfg.lattice, &cfg.objective, &st, &err) == EV_OK);
    CHECK(strategy_open(cfg.strategy_type, cfg_path, &cfg.lattice, &cfg.objective, &st0, &err) == EV_OK);
    if (!st || !st0)
        return;
    strategy_set_cache_budget(st0, 0);
    lattice_shape_from(&shape, &cfg.lattice);
    for (uint64_t i = 0; i < 32; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(&shape, i, g);
        for (int k = 0; k < 7; k++)
            genes[k * 32 + i] = g[k];
    }
    CHECK(strategy_evaluate(st, genes, 32, r, &err) == EV_OK);
    CHECK(strategy_evaluate(st0, genes, 32, r0, &err) == EV_OK);
    /* EMA 4, 8, 30 (ema_slow 8 only beside ema_fast 4), ATR 5, 10, vol_z 20, 40,
     * tr_z of the four (atr_window, z_window) pairs: 11 series, each once */
    CHECK_EQ_I64(11, strategy_ops(st)->series_computed(strategy_state(st)));
    CHECK(strategy_ops(st0)->series_computed(strategy_state(st0)) > 11);
    for (uint64_t i = 0; i < 32; i++) {
        se_params_t p;
        int64_t n;
        se_params_defaults(&p);
        p.fee_bp = 2;
        p.slippage_bp = 1;
        for (int k = 0; k < 7; k++)
            se_params_put(&p, k, cfg.lattice.params[k].values[genes[k * 32 + i]]);
        CHECK(memcmp(&r[i], &r0[i], sizeof r[i]) == 0); /* the budget never changes a result */
        if (!(p.ema_slow > p.ema_fast)) {
            CHECK(!r[i].feasible && r[i].trades == 0);
            continue;
        }
        CHECK_EQ_F64(own_total_return(&b, &p, &n), r[i].fitness);
        CHECK_EQ_I64(n, r[i].trades);
        CHECK_EQ_I64(n >= 1, r[i].feasible);
        traded += n > 0;
    }
    CHECK(traded >= 8);
    test_packed_path(st, st0, genes, r);
    { /* outcomes in percent, quantised; one beyond +-1e5 % counts as 1e5 % */
        const double pct[3] = {1.5, -0.25, 2e5};
        objective_prep_t prep;
        eval_result_t e;
        cfg.objective.cost_pct = 0.1;
        objective_prepare(&prep, &cfg.objective);
        e = strategy_fitness(pct, 3, &cfg.objective, &prep);
        CHECK_EQ_F64(100000.95, e.fitness); /* (1400000 - 350000 + 99999900000) / 1e6 */
        CHECK_EQ_I64(3, e.trades);
        CHECK(e.feasible);
    }
    strategy_close(st);
    strategy_close(st0);
    config_free(&cfg);
    bars_free(&b);
}

int main(void)
{
    test_strategy_evaluator();
    return check_failures ? 1 : 0;
}
