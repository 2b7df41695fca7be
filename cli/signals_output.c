/* The output guard of evolve bars and evolve trades: never an input, only their own CSVs replaced. */
#include "cli/signals_output.h"

#include "io/output_guard.h"
#include "runs/trades_kinds.h"

ev_status signals_output_check(const char *path, const char *what, const char *const own[2], const bars_opts_t *o,
                               const char *genomes, ev_error *err)
{
    const char *marks[TRADES_KIND_MARKS_MAX + 3] = {own[0], own[1] ? own[1] : own[0]};
    ev_status st;
    trades_kind_marks(marks + 2, TRADES_KIND_MARKS_MAX + 1);
    if ((st = output_check_distinct(path, what, o->bars, "bars file", err)) != EV_OK ||
        (st = output_check_distinct(path, what, genomes, "genomes file", err)) != EV_OK)
        return st;
    return output_check_text(path, what, marks, err);
}
