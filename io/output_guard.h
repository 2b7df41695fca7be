/* Outputs never clobber what is not theirs: a path the user names for an
 * output (the run file, the dataset cache, `ingest --out`, `--json`) may be
 * replaced only when it holds nothing yet or an evolve file of the same kind
 * (an earlier run, cache or summary), and never when it is one of the run's
 * inputs. A typo such as `output: all_trade_logs.csv` is then an error, not
 * lost data. */
#ifndef EVOLVE_OUTPUT_GUARD_H
#define EVOLVE_OUTPUT_GUARD_H

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* EV_OK when path does not exist or is an HDF5 file whose root attribute
 * "format" is `format` ("evolve-run", "evolve-dataset", ...); else EV_EIO
 * naming the path, `what` (the option that named it: "output") and `kind`
 * (what was expected there: "an evolve run file"). */
ev_status output_check_h5(const char *path, const char *format, const char *what, const char *kind, ev_error *err);

/* The same for a --json summary: a JSON object with evolve's "mode" and
 * "lattice_size" keys; a new one's folder must be there (a run checks it
 * before it starts, not after it printed its results). */
ev_status output_check_json(const char *path, const char *what, ev_error *err);

/* The same for a text output (a CSV, an SVG chart): replaced only when it is
 * empty or begins with one of `marks` (NULL-terminated: the first bytes every
 * file this command writes starts with, such as its CSV header line); else
 * EV_EIO: "PATH: exists and is not a file this command wrote; not replacing
 * it (WHAT)". */
ev_status output_check_text(const char *path, const char *what, const char *const *marks, ev_error *err);

/* EV_EIO when the output `a` and the file `b` (an input or another output)
 * are the same file: the same path, one file by two paths (a symbolic link,
 * ./t.csv and t.csv), or, not there yet, the same name in one folder; NULL
 * paths are never the same. */
ev_status output_check_distinct(const char *a, const char *a_what, const char *b, const char *b_what, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
