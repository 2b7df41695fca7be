"""ctypes declarations of include/evolve.h (libevolve)."""
import ctypes as C
import os
import sys

c_char_pp = C.POINTER(C.c_char_p)


class Trades(C.Structure):
    _fields_ = [("n_trades", C.c_int64), ("n_tickers", C.c_int32), ("tickers", c_char_pp),
                ("ticker", C.POINTER(C.c_int32)), ("trade_id", C.POINTER(C.c_int64)),
                ("entry_ts", C.POINTER(C.c_int64)), ("exit_ts", C.POINTER(C.c_int64)),
                ("entry_price", C.POINTER(C.c_double)), ("pct_change", C.POINTER(C.c_double)),
                ("n_features", C.c_int32), ("feature_names", c_char_pp), ("features", C.POINTER(C.c_double)),
                ("n_prices", C.c_int64), ("content_hash", C.c_uint64)]


class Param(C.Structure):
    _fields_ = [("name", C.c_char_p), ("role", C.c_char_p), ("feature", C.c_char_p), ("direction", C.c_char_p),
                ("values", C.POINTER(C.c_double)), ("n_values", C.c_size_t)]


class Generation(C.Structure):
    _fields_ = [("generation", C.c_uint32), ("feasible", C.c_uint64), ("best", C.c_double),
                ("median", C.c_double), ("mean", C.c_double), ("std", C.c_double), ("unique", C.c_uint64),
                ("diversity", C.c_double), ("new_evaluations", C.c_uint64), ("evaluations", C.c_uint64),
                ("lookups", C.c_uint64), ("hit_rate", C.c_double), ("wall_s", C.c_double),
                ("hof_best_raw", C.c_double)]


class ReplayTrades(C.Structure):
    _fields_ = [("list", C.c_char_p), ("rank", C.c_uint32), ("n", C.c_int64), ("n_tickers", C.c_int32),
                ("tickers", c_char_pp), ("ticker", C.POINTER(C.c_int32)), ("trade_id", C.POINTER(C.c_int64)),
                ("entry_ts", C.POINTER(C.c_int64)), ("entry_price", C.POINTER(C.c_double)),
                ("exit_ts", C.POINTER(C.c_int64)), ("reason", C.POINTER(C.c_int32)), ("q", C.POINTER(C.c_int64)),
                ("holdout", C.POINTER(C.c_int32))]


GENERATION_CB = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(Generation))
MESSAGE_CB = C.CFUNCTYPE(None, C.c_void_p, C.c_int, C.c_char_p)
MESSAGE_KINDS = ("note", "warning")  # EVOLVE_NOTE, EVOLVE_WARNING


class RunOpts(C.Structure):
    _fields_ = [("mode", C.c_char_p), ("backend", C.c_char_p), ("output", C.c_char_p), ("seed", C.c_uint64),
                ("seed_given", C.c_int), ("top", C.c_uint32), ("verbose", C.c_int),
                ("on_generation", GENERATION_CB), ("user", C.c_void_p), ("on_message", MESSAGE_CB)]


class RunInfo(C.Structure):
    _fields_ = [("run_file", C.c_char * 4096), ("stop_reason", C.c_char * 64), ("generations", C.c_uint32),
                ("evaluations", C.c_uint64), ("seconds", C.c_double)]


def _find_library():
    env = os.environ.get("EVOLVE_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    names = {"win32": ["evolve.dll", "libevolve.dll"], "darwin": ["libevolve.dylib"]}.get(
        sys.platform, ["libevolve.so"])
    for n in names:
        p = os.path.join(here, n)
        if os.path.exists(p):
            return p
    raise ImportError(f"libevolve not found in {here}: install the package with `pip install ./python`, "
                      "or set EVOLVE_LIBRARY to a built libevolve")


P = C.c_void_p
lib = C.CDLL(_find_library())

_sigs = {
    "evolve_version": (C.c_char_p, []),
    "evolve_build_info": (C.c_char_p, []),
    "evolve_strerror": (C.c_char_p, [C.c_int]),
    "evolve_has_cuda": (C.c_int, []),
    "evolve_ctx_new": (P, []),
    "evolve_ctx_free": (None, [P]),
    "evolve_last_error": (C.c_char_p, [P]),
    "evolve_last_status": (C.c_int, [P]),
    "evolve_dataset_from_csv": (C.c_int, [P, C.c_char_p, C.c_char_p, c_char_pp, C.c_size_t, c_char_pp, C.c_size_t,
                                          C.POINTER(P)]),
    "evolve_dataset_from_h5": (C.c_int, [P, C.c_char_p, C.POINTER(P)]),
    "evolve_dataset_from_config": (C.c_int, [P, C.c_char_p, C.POINTER(P)]),
    "evolve_dataset_close": (None, [P]),
    "evolve_dataset_trades": (C.c_int, [P, P, C.POINTER(Trades)]),
    "evolve_lattice_from_yaml": (C.c_int, [P, C.c_char_p, C.c_char_p, C.POINTER(P)]),
    "evolve_lattice_from_values": (C.c_int, [P, C.POINTER(Param), C.c_size_t, C.c_char_p, C.POINTER(P)]),
    "evolve_lattice_set_objective": (C.c_int, [P, P, C.c_char_p]),
    "evolve_lattice_close": (None, [P]),
    "evolve_lattice_n_params": (C.c_int, [P]),
    "evolve_lattice_param": (C.c_int, [P, P, C.c_int, c_char_pp, c_char_pp, c_char_pp, C.POINTER(C.c_uint32)]),
    "evolve_lattice_values": (C.c_int, [P, P, C.c_int, P]),
    "evolve_lattice_size": (C.c_uint64, [P]),
    "evolve_lattice_objective": (C.c_char_p, [P]),
    "evolve_evaluator_open": (C.c_int, [P, P, P, C.c_char_p, C.POINTER(P)]),
    "evolve_evaluator_close": (None, [P]),
    "evolve_evaluator_device": (C.c_char_p, [P]),
    "evolve_evaluate": (C.c_int, [P, P, P, C.c_uint64, P, P, P, P]),
    "evolve_run": (C.c_int, [P, C.c_char_p, C.POINTER(RunOpts), C.POINTER(RunInfo)]),
    "evolve_runfile_open": (C.c_int, [P, C.c_char_p, C.POINTER(P)]),
    "evolve_runfile_close": (None, [P]),
    "evolve_runfile_attr": (C.c_int, [P, P, C.c_char_p, C.c_char_p, C.c_char_p, C.c_size_t]),
    "evolve_runfile_has": (C.c_int, [P, C.c_char_p]),
    "evolve_runfile_lattice": (C.c_int, [P, P, C.POINTER(P)]),
    "evolve_runfile_ranked": (C.c_int, [P, P, C.c_char_p, C.POINTER(C.c_uint32), P, P, P, P, P, P, P]),
    "evolve_runfile_generations": (C.c_uint32, [P]),
    "evolve_runfile_stat_name": (C.c_char_p, [C.c_int]),
    "evolve_runfile_stat": (C.c_int, [P, P, C.c_char_p, P]),
    "evolve_runfile_population": (C.c_int, [P, P, C.c_uint32, C.POINTER(C.c_uint32), P, P, P, P, P]),
    "evolve_trade_stat_name": (C.c_char_p, [C.c_int]),
    "evolve_runfile_trader_stats": (C.c_int, [P, P, C.c_char_p, C.c_int, C.POINTER(C.c_uint32), P, P]),
    "evolve_replay_open": (C.c_int, [P, C.c_char_p, C.c_char_p, C.c_uint32, C.c_char_p, C.POINTER(P)]),
    "evolve_replay_trades_get": (C.c_int, [P, P, C.POINTER(ReplayTrades)]),
    "evolve_replay_close": (None, [P]),
    "evolve_exit_reason_name": (C.c_char_p, [C.c_int]),
    "evolve_runfile_array": (C.c_int, [P, P, C.c_char_p, C.POINTER(C.c_uint64), P]),
    "evolve_runfile_number": (C.c_int, [P, P, C.c_char_p, C.c_char_p, C.POINTER(C.c_double)]),
    "evolve_runfile_string": (C.c_int, [P, P, C.c_char_p, C.c_uint64, C.c_char_p, C.c_size_t,
                                        C.POINTER(C.c_uint64)]),
}
for _name, (_res, _args) in _sigs.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
