/* evolve report on a damaged or hand-edited run file: a stored gene off the
 * lattice (in the grid's top-K, the GA's hall of fame or an archived
 * generation) is an error naming the table, row and parameter, never a read
 * past the value lists or the heatmap (ASan would see one); a name with raw
 * bytes is quoted with \xNN escapes. */
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "io/h5_util.h"
#include "report/report.h"
#include "tests/check.h"
#include "tests/config_test_util.h"

#define DIR "tmp_report_damaged"

static const char config[] =
    "data:\n"
    "  market_dir: data/market\n"
    "  trades: data/all_trade_logs.csv\n"
    "  tickers: [SOXL]\n"
    "parameters:\n"
    "  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.5]}\n"
    "  - {name: adx14, feature: Entry Adx14, values: [0, 20, 30]}\n"
    "  - {name: target, role: target, values: [0.2, 0.5]}\n"
    "ga: {population: 8, generations: 3}\n"
    "output: %s\n";

/* A command of the evolve CLI, run in this process. */
static int call(int (*cmd)(int, char **), int argc, char (*text)[64])
{
    char *args[16];
    for (int i = 0; i < argc; i++)
        args[i] = text[i];
    return cmd(argc, args);
}

/* Overwrites row 0 of the genes table `dset` (a row is one genome, or a
 * generation's 8 genomes) with genomes whose first gene is 200. Every step
 * (open, write, close: the close flushes the write) must succeed: a damage
 * that did not land would leave an intact file, and the test below would
 * test nothing, so the caller fails on -1. */
static int damage(const char *path, const char *dset)
{
    ev_error err;
    uint16_t bad[8 * 3] = {200};
    hid_t f = h5u_file_open(path, 1, &err);
    ev_status st = f < 0 ? EV_EIO : h5u_rows_write(path, f, dset, H5T_NATIVE_UINT16, 0, 1, bad, &err);
    if (f >= 0 && H5Fclose(f) < 0 && st == EV_OK) {
        st = EV_EHDF5;
        snprintf(err.msg, sizeof err.msg, "closing the file failed");
    }
    if (st != EV_OK)
        fprintf(stderr, "cannot damage %s (%s): %s\n", path, dset, err.msg);
    return st == EV_OK ? 0 : -1;
}

/* report_load (and, for the GA, the heatmap built from its genes) refuses
 * the damaged file with a message naming `what`. */
static void expect_refused(const char *path, int32_t heat, const char *what)
{
    report_run_t r;
    ev_error err;
    ev_status st = report_load(&r, path, &err);
    if (st == EV_OK && heat)
        st = report_plots(&r, DIR "/charts", 0, 1, NULL, &err);
    CHECK_EQ_I64(EV_EDATA, st);
    if (st != EV_OK) {
        CHECK_CONTAINS(err.msg, what);
        CHECK_CONTAINS(err.msg, "gene 200 of parameter 'volatility' is outside its 3 values");
    }
    report_free(&r);
}

int main(void)
{
    static char gen[][64] = {"gen-data",  "--out", DIR "/data", "--days", "2",
                             "--tickers", "SOXL",  "--trades",  "120",    "--quiet"};
    static char grid[][64] = {"evolve", DIR "/grid.yaml", "--grid", "--quiet", "--output", DIR "/grid.h5"};
    static char ga[][64] = {"evolve", DIR "/ga.yaml", "--quiet"};
    char text[1024], path[256];
    report_run_t r;
    ev_error err;
    if (call(cmd_gen_data, 10, gen) != 0)
        return 1;
    snprintf(text, sizeof text, config, "grid.h5");
    if (write_text(DIR, "grid.yaml", text, path, sizeof path))
        return 1;
    snprintf(text, sizeof text, config, "ga.h5");
    if (write_text(DIR, "ga.yaml", text, path, sizeof path))
        return 1;
    if (call(cmd_run, 6, grid) != 0 || call(cmd_run, 3, ga) != 0)
        return 1;
    /* intact files load */
    CHECK_EQ_I64(EV_OK, report_load(&r, DIR "/grid.h5", &err));
    report_free(&r);
    CHECK_EQ_I64(EV_OK, report_load(&r, DIR "/ga.h5", &err));
    report_free(&r);

    CHECK_EQ_I64(0, damage(DIR "/grid.h5", "grid/top/genes"));
    expect_refused(DIR "/grid.h5", 0, "/grid/top, row 0");
    CHECK_EQ_I64(0, damage(DIR "/ga.h5", "ga/genes"));
    expect_refused(DIR "/ga.h5", 1, "/ga/genes of generation 0, row 0");
    CHECK_EQ_I64(0, damage(DIR "/ga.h5", "ga/hall_of_fame/genes"));
    expect_refused(DIR "/ga.h5", 0, "/ga/hall_of_fame, row 0");

    /* a name with raw bytes (the fuzzer's find): quoted with \xNN, never raw */
    {
        hid_t f = h5u_file_open(DIR "/grid.h5", 1, &err), g = f < 0 ? -1 : H5Gopen2(f, "objective", H5P_DEFAULT);
        CHECK(g >= 0 && h5u_write_attr_str(DIR "/grid.h5", g, "name",
                                           "tt\x01"
                                           "al_r\xc3",
                                           &err) == EV_OK);
        h5u_close(g);
        CHECK(f >= 0 && H5Fclose(f) >= 0);
        CHECK_EQ_I64(EV_EDATA, report_load(&r, DIR "/grid.h5", &err));
        CHECK_CONTAINS(err.msg, "/objective names an unknown objective 'tt\\x01al_r\\xc3'");
        report_free(&r);
    }
    return check_exit();
}
