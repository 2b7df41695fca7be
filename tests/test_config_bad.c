/* Every user-caused config error (io/config): the status, and a message
 * that starts with FILE:LINE:COLUMN of the offending node, names the key,
 * and says what was expected; a failed load leaves the config zeroed (and,
 * under ASan, leaks nothing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/config.h"
#include "tests/check.h"
#include "tests/config_test_util.h"

typedef struct {
    const char *name; /* the file is tmp_bad/<name>.yaml */
    const char *yaml;
    ev_status status;
    int line, col;    /* 1-based position the message must start with */
    const char *key;  /* the message must contain "key '<key>'"; NULL: no key (syntax errors) */
    const char *what; /* and this phrase */
} bad_case;

/* A valid head: cases that append lines start at line 4. */
#define BASE "data: {dataset: d.h5}\nparameters:\n  - {name: a, feature: F, values: [1]}\n"
#define DATA "data: {dataset: d.h5}\nparameters:\n"
#define BASE_LEN (sizeof BASE - 1)
#define PARAM_LINE "parameters: [{name: a, feature: F, values: [1]}]\n"

static const bad_case cases[] = {
    /* YAML syntax and document shape */
    {"syntax_flow", "data: {dataset: d.h5\nparameters: []\n", EV_EPARSE, 2, 11, NULL,
     "YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 1, column 7)"},
    {"syntax_indent", "data:\n  dataset: d.h5\n bad: 1\n", EV_EPARSE, 3, 2, NULL, "YAML syntax error"},
    {"syntax_tab", "data:\n\tdataset: x\n", EV_EPARSE, 2, 1, NULL, "cannot start any token"},
    {"bad_utf8", "data: {dataset: \"\xff\"}\n", EV_EPARSE, 1, 18, NULL, "invalid leading UTF-8 octet"},
    {"two_documents", BASE "---\ntop: 3\n", EV_ECONFIG, 5, 1, NULL, "a second YAML document starts here"},
    {"empty", "", EV_ECONFIG, 1, 1, NULL, "the config is empty"},
    {"only_comment", "# nothing here\n", EV_ECONFIG, 1, 1, NULL, "the config is empty"},
    {"root_list", "- a\n- b\n", EV_ECONFIG, 1, 1, NULL, "expected a mapping with the keys data, parameters"},
    {"root_scalar", "hello\n", EV_ECONFIG, 1, 1, NULL, "found the string 'hello'"},
    {"complex_key", BASE "? [a]\n: 1\n", EV_ECONFIG, 4, 3, NULL, "expected a key name, found a list"},
    /* No raw bytes in a message (found by tests/fuzz/fuzz_config): a value cut inside a UTF-8
     * character, a control character from a YAML escape. */
    {"cut_utf8",
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc4\x82"
     "bbb\n",
     EV_ECONFIG, 1, 1, NULL, "found the string 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\xc4...'"},
    {"control_escape", BASE "ga: {elitism: \"lo\\ets\"}\n", EV_ECONFIG, 4, 15, "ga.elitism",
     "found the quoted string 'lo\\x1bts'"},
    /* unknown and duplicate keys */
    {"unknown_top", BASE "gaa: {}\n", EV_ECONFIG, 4, 1, "gaa",
     "unknown key; the keys allowed here are: data, parameters, objective, ga, grid, report, top, seed, output"},
    {"unknown_ga", BASE "ga:\n  populaton: 10\n", EV_ECONFIG, 5, 3, "ga.populaton",
     "unknown key; the keys allowed here are: population, generations, islands"},
    {"unknown_param", DATA "  - {name: a, feture: F, values: [1]}\n", EV_ECONFIG, 3, 15, "parameters[0].feture",
     "the keys allowed here are: name, role, feature, direction, values, range"},
    {"unknown_range", DATA "  - name: a\n    feature: F\n    range: {start: 0, stop: 1, step: 0.5, by: 2}\n",
     EV_ECONFIG, 5, 43, "parameters[0].range.by", "the keys allowed here are: start, stop, step"},
    {"duplicate_ga", BASE "ga:\n  population: 10\n  population: 20\n", EV_ECONFIG, 6, 3, "ga.population",
     "duplicate key (first given at line 5, column 3)"},
    {"duplicate_root", "data: {dataset: d.h5}\ndata: {dataset: e.h5}\n" PARAM_LINE, EV_ECONFIG, 2, 1, "data",
     "duplicate key"},
    /* wrong types */
    {"ga_list", BASE "ga: [1, 2]\n", EV_ECONFIG, 4, 5, "ga", "expected a mapping with the keys population"},
    {"migration_scalar", BASE "ga: {migration: 5}\n", EV_ECONFIG, 4, 17, "ga.migration",
     "expected a mapping with the keys every, count, found the number 5"},
    {"parameters_map", "data: {dataset: d.h5}\nparameters: {name: a}\n", EV_ECONFIG, 2, 13, "parameters",
     "expected a list of parameters"},
    {"number_is_string", BASE "ga: {elitism: lots}\n", EV_ECONFIG, 4, 15, "ga.elitism",
     "expected a number >= 0 and < 1, found the string 'lots'"},
    {"quoted_number", BASE "objective: {cost_pct: \"0.5\"}\n", EV_ECONFIG, 4, 23, "objective.cost_pct",
     "expected a number >= 0 and <= 100, found the quoted string '0.5'"},
    {"population_float", BASE "ga:\n  population: 12.5\n", EV_ECONFIG, 5, 15, "ga.population",
     "expected an integer from 2 to 16777216, found the number 12.5"},
    {"strict_yes", "data: {market_dir: m, trades: t, strict: yes}\n" PARAM_LINE, EV_ECONFIG, 1, 42, "data.strict",
     "expected true or false, found the string 'yes'"},
    {"ticker_mapping", "data: {market_dir: m, trades: t, tickers: [{x: 1}]}\n" PARAM_LINE, EV_ECONFIG, 1, 44,
     "data.tickers[0]", "expected a non-empty string, found a mapping"},
    {"value_not_number", DATA "  - {name: a, feature: F, values: [a]}\n", EV_ECONFIG, 3, 36, "parameters[0].values[0]",
     "expected a number, found the string 'a'"},
    {"name_empty", DATA "  - {name: \"\", feature: F, values: [1]}\n", EV_ECONFIG, 3, 12, "parameters[0].name",
     "expected a non-empty string"},
    /* a "\0" escape: libyaml gives an embedded NUL that would cut the C string */
    {"nul_in_name", DATA "  - {name: \"ab\\0cd\", feature: F, values: [1]}\n", EV_ECONFIG, 3, 12, "parameters[0].name",
     "expected text without NUL characters"},
    {"nul_in_path", "data: {dataset: \"d.h5\\x00.txt\"}\n" PARAM_LINE, EV_ECONFIG, 1, 17, "data.dataset",
     "found a NUL"},
    {"nul_in_choice", BASE "objective: {name: \"sharpe\\u0000\"}\n", EV_ECONFIG, 4, 19, "objective.name",
     "expected text without NUL characters"},
    {"nul_in_key", BASE "\"top\\0x\": 3\n", EV_ECONFIG, 4, 1, "top", "expected text without NUL characters"},
    {"cost_huge", BASE "objective: {cost_pct: 1e999}\n", EV_ECONFIG, 4, 23, "objective.cost_pct",
     "beyond the range of a double"},
    /* out-of-range values */
    {"population_small", BASE "ga: {population: 1}\n", EV_ECONFIG, 4, 18, "ga.population",
     "expected an integer from 2 to 16777216, found 1"},
    {"population_huge", BASE "ga: {population: 99999999999}\n", EV_ECONFIG, 4, 18, "ga.population",
     "expected an integer from 2 to 16777216, found 99999999999"},
    {"islands_divisor", BASE "ga: {population: 10, islands: 3}\n", EV_ECONFIG, 4, 31, "ga.islands",
     "expected a divisor of the population (10), found 3"},
    {"island_size", BASE "ga: {population: 4, islands: 4}\n", EV_ECONFIG, 4, 30, "ga.islands",
     "each island needs >= 2"},
    {"migration_count", BASE "ga:\n  population: 8\n  islands: 2\n  migration: {every: 1, count: 4}\n", EV_ECONFIG, 7,
     32, "ga.migration.count", "expected fewer migrants than the island size (4), found 4"},
    {"elitism_one", BASE "ga: {elitism: 1}\n", EV_ECONFIG, 4, 15, "ga.elitism",
     "expected a number >= 0 and < 1, found 1"},
    {"crossover_rate", BASE "ga: {crossover: {rate: 1.5}}\n", EV_ECONFIG, 4, 24, "ga.crossover.rate",
     "expected a number >= 0 and <= 1, found 1.5"},
    {"tournament_k", BASE "ga: {selection: {k: 0}}\n", EV_ECONFIG, 4, 21, "ga.selection.k",
     "expected an integer from 1 to 1024, found 0"},
    {"truncation_zero", BASE "ga: {selection: {type: truncation, truncation: 0}}\n", EV_ECONFIG, 4, 48,
     "ga.selection.truncation", "expected a number > 0 and <= 1, found 0"},
    {"mutation_word", BASE "ga: {mutation: {rate: fast}}\n", EV_ECONFIG, 4, 23, "ga.mutation.rate",
     "expected auto (1 / number of parameters) or a number > 0 and <= 1, found the string 'fast'"},
    {"mutation_zero", BASE "ga: {mutation: {rate: 0}}\n", EV_ECONFIG, 4, 23, "ga.mutation.rate",
     "expected a number > 0 and <= 1, found 0"},
    {"top_zero", BASE "top: 0\n", EV_ECONFIG, 4, 6, "top", "expected an integer from 1 to 100000, found 0"},
    /* upper bounds: beyond them the exact sums overflow or memory and loops explode */
    {"top_huge", BASE "top: 100000000\n", EV_ECONFIG, 4, 6, "top", "expected an integer from 1 to 100000"},
    {"population_over", BASE "ga: {population: 16777218}\n", EV_ECONFIG, 4, 18, "ga.population",
     "expected an integer from 2 to 16777216, found 16777218"},
    {"tournament_huge", BASE "ga: {selection: {k: 4000000000}}\n", EV_ECONFIG, 4, 21, "ga.selection.k",
     "expected an integer from 1 to 1024, found 4000000000"},
    {"ls_depth", BASE "ga: {local_search: {depth: 3}}\n", EV_ECONFIG, 4, 28, "ga.local_search.depth",
     "expected an integer from 1 to 2, found 3"},
    {"ls_exit_pairs", BASE "ga: {local_search: {exit_pairs: 2}}\n", EV_ECONFIG, 4, 33, "ga.local_search.exit_pairs",
     "expected true or false, found the number 2"},
    {"ls_kicks_word", BASE "ga: {local_search: {kicks: many}}\n", EV_ECONFIG, 4, 28, "ga.local_search.kicks",
     "expected an integer from 0 to 1024, found the string 'many'"},
    {"ls_kick_genes_one", BASE "ga: {local_search: {kick_genes: 1}}\n", EV_ECONFIG, 4, 33, "ga.local_search.kick_genes",
     "expected an integer from 2 to 16, found 1"},
    {"ls_kick_relax_zero", BASE "ga: {local_search: {kick_relax: 0}}\n", EV_ECONFIG, 4, 33,
     "ga.local_search.kick_relax", "expected an integer from 1 to 100, found 0"},
    {"ls_random_relax", BASE "ga: {local_search: {random_relax: 90}}\n", EV_ECONFIG, 4, 35,
     "ga.local_search.random_relax", "expected true or false, found the number 90"},
    {"ls_random_exits_off", BASE "ga: {local_search: {random_exits_off: 1}}\n", EV_ECONFIG, 4, 39,
     "ga.local_search.random_exits_off", "expected true or false, found the number 1"},
    {"creep_huge", BASE "ga: {mutation: {creep_max: 65536}}\n", EV_ECONFIG, 4, 28, "ga.mutation.creep_max",
     "expected an integer from 1 to 65535"},
    {"drawdown_huge", BASE "objective: {max_drawdown_pct: 1e13}\n", EV_ECONFIG, 4, 31, "objective.max_drawdown_pct",
     "expected a number > 0 and <= 1e+12, found 1e13"},
    {"cost_over", BASE "objective: {cost_pct: 100.5}\n", EV_ECONFIG, 4, 23, "objective.cost_pct",
     "expected a number >= 0 and <= 100, found 100.5"},
    {"target_huge", DATA "  - {name: t, role: target, values: [1, 2e6]}\n", EV_ECONFIG, 3, 41,
     "parameters[0].values[1]", "parameter 't': a target percent is at most 1e+06 in size, found 2e6"},
    {"stop_range_huge",
     DATA "  - name: s\n    role: stop\n    range: {start: -2000000, stop: -1000000, step: 1000000}\n", EV_ECONFIG, 5,
     20, "parameters[0].range.start", "a stop percent is at most 1e+06 in size, but the range starts at -2000000"},
    {"seed_negative", BASE "seed: -1\n", EV_ECONFIG, 4, 7, "seed",
     "expected a non-negative integer or the word random, found the number -1"},
    {"seed_word", BASE "seed: later\n", EV_ECONFIG, 4, 7, "seed", "found the string 'later'"},
    {"min_trades_negative", BASE "objective: {min_trades: -1}\n", EV_ECONFIG, 4, 25, "objective.min_trades",
     "found -1"},
    {"drawdown_zero", BASE "objective: {max_drawdown_pct: 0}\n", EV_ECONFIG, 4, 31, "objective.max_drawdown_pct",
     "expected a number > 0 and <= 1e+12, found 0"},
    {"cost_negative", BASE "objective: {cost_pct: -0.1}\n", EV_ECONFIG, 4, 23, "objective.cost_pct",
     "expected a number >= 0 and <= 100, found -0.1"},
    /* unknown names */
    {"objective_unknown", BASE "objective: {name: roi}\n", EV_ECONFIG, 4, 19, "objective.name",
     "expected one of total_return, mean, sharpe, profit_factor, compound, calmar, found the string 'roi'"},
    {"fill_unknown", BASE "objective: {fill: close}\n", EV_ECONFIG, 4, 19, "objective.fill",
     "expected one of level, price"},
    {"selection_unknown", BASE "ga: {selection: {type: roulette}}\n", EV_ECONFIG, 4, 24, "ga.selection.type",
     "expected one of tournament, truncation"},
    {"crossover_unknown", BASE "ga: {crossover: {type: blend}}\n", EV_ECONFIG, 4, 24, "ga.crossover.type",
     "expected one of uniform, one_point, two_point"},
    /* strategy configs (docs/signals.md): role strategy only there, and only there */
    {"role_strategy_in_trade_log", DATA "  - {name: t, role: strategy, values: [1]}\n", EV_ECONFIG, 3, 21,
     "parameters[0].role", "role strategy belongs to strategy configs"},
    {"role_filter_in_strategy",
     "strategy: {type: seller_exhaustion, bars: {csv: b.csv}}\nparameters:\n  - {name: vol_z, role: filter, "
     "feature: F, values: [1]}\n",
     EV_ECONFIG, 3, 25, "parameters[0].role", "a strategy config's parameters have role strategy, not filter"},
    {"strategy_and_data",
     "strategy: {type: seller_exhaustion}\ndata: {dataset: d.h5}\nparameters:\n  - {name: a, "
     "values: [1]}\n",
     EV_ECONFIG, 2, 1, "data", "drop data: or strategy:"},
    {"strategy_names_and_numbers", "strategy: {type: atc}\nparameters:\n  - {name: robustness, values: [Narrow, 2]}\n",
     EV_ECONFIG, 3, 41, "parameters[0].values[1]", "a name, as the list's first value is"},
    {"strategy_names_twice", "strategy: {type: atc}\nparameters:\n  - {name: robustness, values: [Wide, Wide]}\n",
     EV_ECONFIG, 3, 39, "parameters[0].values[1]", "'Wide' is listed twice"},
    {"strategy_no_type", "strategy: {bars: {csv: b.csv}}\nparameters:\n  - {name: a, values: [1]}\n", EV_ECONFIG, 1, 11,
     "strategy.type", "a strategy name"},
    {"role_unknown", DATA "  - {name: t, role: exit, values: [1]}\n", EV_ECONFIG, 3, 21, "parameters[0].role",
     "expected one of filter, target, stop"},
    {"direction_unknown", DATA "  - {name: a, feature: F, direction: up, values: [1]}\n", EV_ECONFIG, 3, 38,
     "parameters[0].direction", "expected one of min, max"},
    /* missing keys and the data source rules */
    {"missing_parameters", "data: {dataset: d.h5}\n", EV_ECONFIG, 1, 1, "parameters", "required key is missing"},
    {"missing_data", PARAM_LINE, EV_ECONFIG, 1, 1, "data", "required key is missing"},
    {"data_neither", "data: {cache: c.h5}\n" PARAM_LINE, EV_ECONFIG, 1, 7, "data", "found neither"},
    {"data_both", "data: {dataset: d.h5, market_dir: m, trades: t}\n" PARAM_LINE, EV_ECONFIG, 1, 8, "data.dataset",
     "not both"},
    {"market_without_trades", "data: {market_dir: m}\n" PARAM_LINE, EV_ECONFIG, 1, 7, "data.trades",
     "required key is missing"},
    {"trades_without_market", "data: {trades: t}\n" PARAM_LINE, EV_ECONFIG, 1, 7, "data.market_dir",
     "required key is missing"},
    {"dataset_with_tickers", "data: {dataset: d.h5, tickers: [A]}\n" PARAM_LINE, EV_ECONFIG, 1, 23, "data.tickers",
     "applies only to raw CSVs"},
    {"tickers_empty", "data: {market_dir: m, trades: t, tickers: []}\n" PARAM_LINE, EV_ECONFIG, 1, 43, "data.tickers",
     "expected a non-empty list of ticker symbols, found an empty list"},
    {"ticker_twice", "data: {market_dir: m, trades: t, tickers: [A, B, A]}\n" PARAM_LINE, EV_ECONFIG, 1, 50,
     "data.tickers[2]", "'A' is listed twice"},
    /* lattices */
    {"parameters_empty", "data: {dataset: d.h5}\nparameters: []\n", EV_ECONFIG, 2, 13, "parameters",
     "expected at least one parameter"},
    {"values_empty", DATA "  - {name: a, feature: F, values: []}\n", EV_ECONFIG, 3, 35, "parameters[0].values",
     "parameter 'a': expected at least one value, found an empty list"},
    {"values_unsorted", DATA "  - {name: a, feature: F, values: [0.3, 0.2]}\n", EV_ECONFIG, 3, 41,
     "parameters[0].values[1]", "parameter 'a': values must be strictly increasing, found 0.2 after 0.3"},
    {"values_equal", DATA "  - {name: a, feature: F, values: [1, 1.0]}\n", EV_ECONFIG, 3, 39, "parameters[0].values[1]",
     "found 1.0 after 1"},
    {"step_not_dividing", DATA "  - name: adx\n    feature: F\n    range: {start: 0, stop: 1, step: 0.3}\n", EV_ECONFIG,
     5, 38, "parameters[0].range.step", "parameter 'adx': step 0.3 does not divide the range 0 .. 1"},
    {"step_zero", DATA "  - name: adx\n    feature: F\n    range: {start: 0, stop: 1, step: 0}\n", EV_ECONFIG, 5, 38,
     "parameters[0].range.step", "expected a step > 0, found 0"},
    {"range_reversed", DATA "  - name: adx\n    feature: F\n    range: {start: 1, stop: 0, step: 0.1}\n", EV_ECONFIG, 5,
     29, "parameters[0].range.stop", "expected stop >= start (1), found 0"},
    {"range_too_many", DATA "  - name: adx\n    feature: F\n    range: {start: 0, stop: 70000, step: 1}\n", EV_ECONFIG,
     5, 12, "parameters[0].range", "expected at most 65535 values, found a range of 70001"},
    {"range_no_step", DATA "  - name: adx\n    feature: F\n    range: {start: 0, stop: 1}\n", EV_ECONFIG, 5, 12,
     "parameters[0].range.step", "required key is missing"},
    {"range_too_precise",
     DATA "  - name: adx\n    feature: F\n    range: {start: 0.1234567890123456789, stop: 1, step: 0.1}\n", EV_ECONFIG,
     5, 20, "parameters[0].range.start", "more than 18 significant digits"},
    {"two_targets", DATA "  - {name: t1, role: target, values: [1]}\n  - {name: t2, role: target, values: [2]}\n",
     EV_ECONFIG, 4, 22, "parameters[1].role", "parameters 't1' and 't2' both have role target"},
    {"two_stops", DATA "  - {name: s1, role: stop, values: [-1]}\n  - {name: s2, role: stop, values: [-2]}\n",
     EV_ECONFIG, 4, 22, "parameters[1].role", "at most one stop is allowed"},
    {"target_zero", DATA "  - {name: t, role: target, values: [0, 0.2]}\n", EV_ECONFIG, 3, 38,
     "parameters[0].values[0]", "parameter 't': a target is a take-profit percent > 0, found 0"},
    {"stop_zero", DATA "  - {name: s, role: stop, values: [-0.2, 0]}\n", EV_ECONFIG, 3, 42, "parameters[0].values[1]",
     "parameter 's': a stop is a stop-loss percent < 0, found 0"},
    {"target_range_zero", DATA "  - name: t\n    role: target\n    range: {start: 0, stop: 1, step: 0.5}\n", EV_ECONFIG,
     5, 20, "parameters[0].range.start", "a target is a take-profit percent > 0, but the range starts at 0"},
    {"stop_range_zero", DATA "  - name: s\n    role: stop\n    range: {start: -1, stop: 0, step: 0.5}\n", EV_ECONFIG, 5,
     30, "parameters[0].range.stop", "a stop is a stop-loss percent < 0, but the range ends at 0"},
    /* SPEC sec. 4.1's exits */
    {"trail_zero", DATA "  - {name: tr, role: trail, values: [0, 0.2]}\n", EV_ECONFIG, 3, 38, "parameters[0].values[0]",
     "parameter 'tr': a trail is a percent > 0 below the running maximum, found 0"},
    {"two_trails", DATA "  - {name: a, role: trail, values: [1]}\n  - {name: b, role: trail, values: [2]}\n",
     EV_ECONFIG, 4, 21, "parameters[1].role", "parameters 'a' and 'b' both have role trail; at most one trail"},
    {"breakeven_negative", DATA "  - {name: be, role: breakeven, values: [-0.1]}\n", EV_ECONFIG, 3, 42,
     "parameters[0].values[0]", "a breakeven is a gain percent > 0"},
    {"max_hold_fraction", DATA "  - {name: h, role: max_hold, values: [60, 1.5]}\n", EV_ECONFIG, 3, 44,
     "parameters[0].values[1]",
     "parameter 'h': a max_hold is whole seconds >= 0 (at most a year, 31622400), found 1.5"},
    {"max_hold_range_fraction", DATA "  - name: h\n    role: max_hold\n    range: {start: 0, stop: 2, step: 0.5}\n",
     EV_ECONFIG, 5, 12, "parameters[0].range",
     "a max_hold is whole seconds >= 0 (at most a year, 31622400), but the range holds 0.5"},
    {"trail_feature", DATA "  - {name: tr, role: trail, feature: F, values: [1]}\n", EV_ECONFIG, 3, 29,
     "parameters[0].feature", "parameter 'tr' has role trail, which takes no 'feature'"},
    {"filter_no_feature", DATA "  - {name: a, values: [1]}\n", EV_ECONFIG, 3, 5, "parameters[0].feature",
     "required key is missing; expected the trade-log column this filter reads"},
    {"target_feature", DATA "  - {name: t, role: target, feature: F, values: [1]}\n", EV_ECONFIG, 3, 29,
     "parameters[0].feature", "parameter 't' has role target, which takes no 'feature'"},
    {"target_direction", DATA "  - {name: t, role: target, direction: min, values: [1]}\n", EV_ECONFIG, 3, 29,
     "parameters[0].direction", "takes no 'direction'"},
    {"values_and_range", DATA "  - {name: a, feature: F, values: [1], range: {start: 0, stop: 1, step: 1}}\n",
     EV_ECONFIG, 3, 40, "parameters[0].range", "give either 'values' or 'range', not both"},
    {"no_values", DATA "  - {name: a, feature: F}\n", EV_ECONFIG, 3, 5, "parameters[0].values",
     "required key is missing; expected a list of values, or a range"},
    {"no_name", DATA "  - {feature: F, values: [1]}\n", EV_ECONFIG, 3, 5, "parameters[0].name",
     "required key is missing"},
    {"name_twice", DATA "  - {name: a, feature: F, values: [1]}\n  - {name: a, feature: G, values: [1]}\n", EV_ECONFIG,
     4, 12, "parameters[1].name", "parameter name 'a' is already used by parameters[0]"},
    {"parameter_scalar", DATA "  - volatility\n", EV_ECONFIG, 3, 5, "parameters[0]",
     "expected a mapping with the keys name, role, feature"},
    /* ga.checkpoint_every, report: (the run file) */
    {"checkpoint_zero", BASE "ga: {checkpoint_every: 0}\n", EV_ECONFIG, 4, 24, "ga.checkpoint_every",
     "expected an integer >= 1"},
    {"report_unknown_key", BASE "report: {heatmaps: [a, a]}\n", EV_ECONFIG, 4, 10, "report.heatmaps",
     "unknown key; the keys allowed here are: heatmap, diverse"},
    {"diverse_yes", BASE "report: {diverse: yes}\n", EV_ECONFIG, 4, 19, "report.diverse",
     "expected true or false, found the string 'yes'"},
    {"heatmap_one", BASE "report: {heatmap: [a]}\n", EV_ECONFIG, 4, 19, "report.heatmap",
     "expected two parameter names [x, y], found a list of 1"},
    {"heatmap_unknown", BASE "report: {heatmap: [a, rsi]}\n", EV_ECONFIG, 4, 23, "report.heatmap[1]",
     "unknown parameter 'rsi'; the parameters are: a"},
    {"heatmap_twice",
     DATA "  - {name: a, feature: F, values: [1]}\n  - {name: b, feature: F, values: [1]}\n"
          "report: {heatmap: [b, b]}\n",
     EV_ECONFIG, 5, 19, "report.heatmap", "two different parameters, found 'b' twice"},
    {"heatmap_scalar", BASE "report: {heatmap: a}\n", EV_ECONFIG, 4, 19, "report.heatmap",
     "expected a list of two parameter names [x, y]"},
};

/* 17 parameters: one more than EV_MAX_PARAMS. */
static void too_many_params(char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, DATA);
    for (int i = 0; i < 17 && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "  - {name: p%d, feature: F, values: [1]}\n", i);
}

static void run_case(const bad_case *c)
{
    char file[128], path[256], prefix[320], key[300];
    config_t cfg;
    ev_error err;
    ev_status st;
    snprintf(file, sizeof file, "%s.yaml", c->name);
    if (write_text("tmp_bad", file, c->yaml, path, sizeof path) != 0) {
        check_failures++;
        return;
    }
    memset(&cfg, 0xab, sizeof cfg); /* config_load must clear it, whatever it held */
    err.msg[0] = '\0';
    st = config_load(path, &cfg, &err);
    if (st != c->status) {
        fprintf(stderr, "case %s: expected status %s, got %s: %s\n", c->name, ev_status_str(c->status),
                ev_status_str(st), err.msg);
        check_failures++;
        if (st == EV_OK)
            config_free(&cfg);
        return;
    }
    snprintf(prefix, sizeof prefix, "%s:%d:%d: ", path, c->line, c->col);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "case %s: expected the message to start with \"%s\", got \"%s\"\n", c->name, prefix, err.msg);
        check_failures++;
    }
    if (c->key) {
        snprintf(key, sizeof key, "key '%s': ", c->key);
        CHECK_CONTAINS(err.msg, key);
    }
    CHECK_CONTAINS(err.msg, c->what);
    CHECK(all_zero(&cfg, sizeof cfg));
}

int main(void)
{
    static char many[4096];
    bad_case extra;
    config_t cfg;
    ev_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);

    too_many_params(many, sizeof many);
    extra.name = "too_many_params";
    extra.yaml = many;
    extra.status = EV_ECONFIG;
    extra.line = 19; /* the 17th item */
    extra.col = 5;
    extra.key = "parameters";
    extra.what = "expected at most 16 parameters, found 17";
    run_case(&extra);

    /* Nesting libyaml would take minutes over (quadratic in depth) stops at 64 levels. */
    {
        static char deep[BASE_LEN + 2 * 100000 + 16];
        size_t used = (size_t)snprintf(deep, sizeof deep, BASE "report: ");
        memset(deep + used, '[', 100000);
        memset(deep + used + 100000, ']', 100000);
        memcpy(deep + used + 200000, "\n", 2);
        extra.name = "deep_nesting";
        extra.yaml = deep;
        extra.line = 4;
        extra.col = 72; /* the root mapping is level 1, so the 64th '[' is level 65 */
        extra.key = NULL;
        extra.what = "nested deeper than 64 levels";
        run_case(&extra);
    }

    /* Files that cannot be read. */
    memset(&cfg, 0xab, sizeof cfg);
    CHECK_EQ_I64(EV_EIO, config_load("tmp_bad/missing.yaml", &cfg, &err));
    CHECK_CONTAINS(err.msg, "tmp_bad/missing.yaml: no such file");
    CHECK(all_zero(&cfg, sizeof cfg));
    CHECK_EQ_I64(EV_EIO, config_load("tmp_bad", &cfg, &err));
    CHECK_CONTAINS(err.msg, "tmp_bad: is a directory");
    CHECK(all_zero(&cfg, sizeof cfg));
    printf("%zu bad configs checked\n", sizeof cases / sizeof cases[0] + 2);
    return check_exit();
}
