#!/usr/bin/env python3
"""Every user error around run files: the exit code, a message naming the
file or key, and no file left behind (nor an existing run touched):
report on a missing file, on a file that is not an evolve run file, with an
unknown heatmap parameter, into an unwritable place; a run whose output
directory cannot be made; report.heatmap naming no parameter; --resume of
nothing, of a finished run, of a run whose config, seed, top, data or evolve
differ; a fresh run over an interrupted one; options that do not combine;
outputs (run file, data.cache, --json, ingest --out) over a file that is not
an evolve file of their kind, or over an input.
Standard library only (the evolve-version case uses h5py when present)."""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
from evolve_cli import tree  # noqa: E402

check = cli.Checker()


def case(evolve, work, name, args, rc, msgs, env=None, ignore=()):
    before = tree(work)
    r = cli.run(evolve, args, env, cwd=work)
    ok = check(r.returncode == rc, f"{name}: exit {r.returncode}, expected {rc}: {r.stderr.strip()}")
    for m in msgs:
        ok &= check(m in r.stderr, f"{name}: message lacks '{m}': {r.stderr.strip()}")
    after = tree(work)
    for f in ignore:
        before.pop(f, None)
        after.pop(f, None)
    ok &= check(after == before, f"{name}: files changed: added {sorted(set(after) - set(before))}, "
                                 f"removed {sorted(set(before) - set(after))}, "
                                 f"modified {sorted(k for k in before if k in after and before[k] != after[k])}")
    if ok:
        print(f"ok: {name}: {r.stderr.strip().splitlines()[-1][:150] if r.stderr.strip() else ''}", flush=True)


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_runbad_") as root:
        work = os.path.join(root, "work")
        os.makedirs(work)
        out = os.path.join(work, "run.h5")
        data, cfg = cli.data_and_config(E, root, out, population=32, generations=10)
        r = cli.run(E, [cfg, "--quiet"])
        check(r.returncode == 0, f"a good run: {r.stderr}")
        with open(os.path.join(work, "notes.txt"), "w") as f:
            f.write("not a run file\n")

        # report
        case(E, work, "report: missing file", ["report", "nope.h5"], 1, ["nope.h5", "no such run file"])
        case(E, work, "report: a text file", ["report", "notes.txt"], 1, ["notes.txt", "not an HDF5 file"])
        case(E, work, "report: a dataset file", ["report", "dataset.h5"], 1,
             ["dataset.h5", "not an evolve run file"])
        case(E, work, "report: unknown heatmap parameter", ["report", "run.h5", "--heatmap", "volatility,rsi"], 2,
             ["unknown parameter 'rsi'", "volatility, ratio"])
        case(E, work, "report: heatmap not a pair", ["report", "run.h5", "--heatmap", "volatility"], 2,
             ["expected two parameter names X,Y"])
        case(E, work, "report: unwritable --out", ["report", "run.h5", "--out", "notes.txt/charts"], 1,
             ["notes.txt"])
        case(E, work, "report: no run file", ["report"], 2, ["no run file given"])

        # runs
        bad_out = os.path.join(work, "bad.yaml")
        cli.write_config(bad_out, data, os.path.join(work, "notes.txt", "run.h5"))
        case(E, work, "run: output under a file", [bad_out, "--quiet"], 1, ["notes.txt", "not a directory"])
        case(E, work, "grid: output under a file", [bad_out, "--grid", "--quiet"], 1, ["notes.txt"])
        # outputs never clobber a file that is not an evolve file of their kind, nor an input
        notes = os.path.join(work, "notes.txt")
        clobber = os.path.join(work, "clobber.yaml")
        cli.write_config(clobber, data, notes)
        case(E, work, "run: output over a text file", [clobber, "--quiet"], 1,
             ["notes.txt: refusing to overwrite it with the run file (output): it is not an HDF5 file, "
              "not an evolve run file"])
        case(E, work, "grid: output over the dataset cache", [cfg, "--grid", "--quiet", "--output", "dataset.h5"], 1,
             ["dataset.h5: refusing to overwrite", "an HDF5 file of another kind, not an evolve run file"])
        case(E, work, "grid: output over the config", [cfg, "--grid", "--quiet", "--output", "run.yaml"], 1,
             ["run.yaml: refusing to overwrite"])
        case(E, work, "grid: --json over the config", [cfg, "--grid", "--quiet", "--json", "run.yaml"], 1,
             ["run.yaml: refusing to overwrite it with the --json summary"])
        case(E, work, "grid: --json over the run file", [cfg, "--grid", "--quiet", "--json", "run.h5"], 1,
             ["run.h5: refusing to overwrite it with the --json summary"])
        case(E, work, "grid: --json is the output", [cfg, "--grid", "--quiet", "--output", "new.h5", "--json",
                                                     "new.h5"], 1,
             ["new.h5: the --json summary would overwrite the run file (output)"])
        cache_bad = os.path.join(work, "cache.yaml")
        trades = os.path.join(data, "all_trade_logs.csv")
        text = cli.write_config(cache_bad, data, out)
        with open(cache_bad, "w") as f:
            f.write(text.replace(os.path.join(work, "dataset.h5"), trades))
        before_log = open(trades).read()
        case(E, work, "run: data.cache is the trade log", [cache_bad, "--grid", "--quiet"], 1,
             ["all_trade_logs.csv: refusing to overwrite it with the dataset cache (data.cache)"])
        check(open(trades).read() == before_log, "the trade log named as data.cache is untouched")
        case(E, work, "ingest: --out over a text file", ["ingest", "--market", os.path.join(data, "market"),
                                                         "--trades", trades, "--tickers", "SOXL", "--out",
                                                         "notes.txt", "--quiet"], 1,
             ["notes.txt: refusing to overwrite it with the --out dataset", "not an evolve dataset"])
        case(E, work, "ingest: --out over the trade log", ["ingest", "--market", os.path.join(data, "market"),
                                                           "--trades", trades, "--tickers", "SOXL", "--out",
                                                           trades, "--quiet"], 1, ["refusing to overwrite"])
        check(open(trades).read() == before_log, "the trade log named as --out is untouched")
        case(E, work, "run: --top beyond its bound", [cfg, "--grid", "--top", "100000000"], 2,
             ["--top: expected an integer 1..100000, got '100000000'"])
        os.remove(clobber)
        os.remove(cache_bad)
        heat = os.path.join(root, "heat.yaml")
        cli.write_config(heat, data, out, extra="", parameters=cli.SOXL_PARAMETERS +
                         "report:\n  heatmap: [volatility, rsi]\n")
        case(E, work, "config: report.heatmap unknown", [heat, "--quiet"], 1,
             ["key 'report.heatmap[1]'", "unknown parameter 'rsi'"])

        # resume
        case(E, work, "resume: nothing there", [cfg, "--resume", "other.h5"], 1, ["no run to resume"])
        case(E, work, "resume: a finished run", [cfg, "--resume", "run.h5"], 1, ["a finished run", "run.h5"])
        case(E, work, "resume with --validate", [cfg, "--validate", "--resume", "run.h5"], 2, ["--resume"])
        case(E, work, "grid resume: a finished run", [cfg, "--grid", "--resume", "run.h5"], 1, ["a finished run"])
        case(E, work, "resume with --output", [cfg, "--resume", "run.h5", "--output", "x.h5"], 2, ["--output"])
        os.remove(out)
        r = cli.run(E, [cfg, "--quiet"], {"EVOLVE_TEST_KILL": "written:5"})
        check(os.path.exists(out + ".partial"), "a killed run for the resume cases")
        # the killed run's lock file (unlocked) is the one thing the refusal may tidy
        case(E, work, "fresh run over an interrupted one", [cfg, "--quiet"], 1,
             ["an interrupted run of this output exists", "--resume"], ignore=("run.h5.lock",))
        case(E, work, "resume: another seed", [cfg, "--resume", "run.h5", "--seed", "7"], 1,
             ["cannot resume", "the seed differs (the run used 42, this command 7)"])
        case(E, work, "resume: another top", [cfg, "--resume", "run.h5", "--top", "5"], 1, ["top differs"])
        changed = os.path.join(work, "changed.yaml")
        shutil.copy(cfg, changed)
        with open(changed, "a") as f:
            f.write("# an edit\n")
        case(E, work, "resume: another config", [changed, "--resume", "run.h5"], 1,
             ["the config differs", "changed.yaml"])
        # other data: one trade's logged result changed in place; the dataset
        # cache is rebuilt (that file may change), its content hash differs
        log = os.path.join(data, "all_trade_logs.csv")
        shutil.copy(log, os.path.join(root, "log.bak"))
        with open(log) as f:
            lines = f.read().splitlines()
        cells = lines[1].split(",")
        cells[lines[0].split(",").index("Trade Percent Change")] = "0.1234"
        lines[1] = ",".join(cells)
        with open(log, "w") as f:
            f.write("\n".join(lines) + "\n")
        case(E, work, "resume: other data", [cfg, "--resume", "run.h5"], 1,
             ["the dataset differs", "the data changed"], ignore=("dataset.h5",))
        shutil.copy(os.path.join(root, "log.bak"), log)
        try:
            import h5py
            ck = out + ".partial.ckpt"
            shutil.copy(ck, os.path.join(root, "ckpt.bak"))
            with h5py.File(ck, "r+") as f:  # as another build would have written it
                f.attrs["tool_version"] = "evolve 0.0.1 (git 000000000000)"
            case(E, work, "resume: another evolve", [cfg, "--resume", "run.h5"], 1,
                 ["the code differs", "evolve 0.0.1 (git 000000000000)"], ignore=("dataset.h5",))
            shutil.copy(os.path.join(root, "ckpt.bak"), ck)
        except ImportError:
            print("h5py not available: the evolve-version case is skipped")
        r = cli.run(E, [cfg, "--resume", out, "--quiet"])
        check(r.returncode == 0 and os.path.exists(out) and not os.path.exists(out + ".partial"),
              f"after the refusals, the run still resumes: {r.stderr}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
