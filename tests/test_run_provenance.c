/* The run file's /provenance/dataset identity (archive/run_provenance.c):
 * trades_kept is the number of trades of the dataset the search ran on, and a
 * run's origin (runs/run_output.c) is that dataset: with a validation block,
 * the in-sample trades (session_t.ds), not the whole dataset (ds_full). */
#include <stdio.h>
#include <string.h>

#include "archive/run_file.h"
#include "ga/backend.h"
#include "runs/run_output.h"
#include "tests/check.h"
#include "tests/config_test_util.h"

#define DIR "tmp_run_provenance"

static session_t s; /* large: off the stack */

int main(void)
{
    char cfg_path[256];
    run_origin_t o;
    run_file_t rf;
    ev_error err;
    char tool[] = "evolve test", created[] = "2026-01-01T00:00:00Z";
    uint64_t kept = 0, hash = 0;
    if (write_text(DIR, "c.yaml",
                   "data: {dataset: d.h5}\n"
                   "parameters: [{name: v, feature: F, values: [0, 1]}]\n",
                   cfg_path, sizeof cfg_path) ||
        config_load(cfg_path, &s.cfg, &err) != EV_OK) {
        fprintf(stderr, "config: %s\n", err.msg);
        return 2;
    }
    s.ops = &backend_cpu_ops;
    s.validating = 1;
    s.ds.n_trades = 123;      /* in-sample: what the search ran on */
    s.ds_full.n_trades = 200; /* the whole dataset */
    s.ds.content_hash = 0xABCDu;
    s.ds.tool_version = tool;
    s.ds.created_utc = created;
    run_output_origin(&o, &s, "grid", "started");
    CHECK(o.ds == &s.ds);
    CHECK_EQ_I64(EV_OK, run_file_create(&rf, DIR "/run.h5", &o, &err));
    CHECK_EQ_I64(EV_OK, run_file_close(&rf, &err));
    if (run_file_open(&rf, DIR "/run.h5", &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    CHECK_EQ_I64(EV_OK, run_file_read_u64(&rf, "provenance/dataset", "trades_kept", &kept, &err));
    CHECK_EQ_I64(EV_OK, run_file_read_u64(&rf, "provenance/dataset", "content_hash", &hash, &err));
    CHECK_EQ_I64(123, (int64_t)kept);
    CHECK_EQ_I64(0xABCD, (int64_t)hash);
    run_file_close(&rf, NULL);
    config_free(&s.cfg);
    return check_exit();
}
