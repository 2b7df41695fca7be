/* common/options.h: both spellings of every kind of option, the number rule,
 * and every mistake with its message. */
#include <stdint.h>
#include <string.h>

#include "common/options.h"
#include "tests/check.h"

typedef struct {
    int quiet, level, mode, level_seen;
    const char *out;
    uint64_t seed;
    int64_t count;
    const char *pos[2];
    int n_pos;
    char called[64];
} args_t;

static ev_status remember(const char *name, const char *value, void *dest, ev_error *err)
{
    if (!strcmp(value, "bad"))
        return ev_fail(err, EV_EUSAGE, "%s: not '%s'", name, value);
    snprintf((char *)dest, 64, "%s=%s", name, value);
    return EV_OK;
}

static const char *const modes[] = {"fast", "slow", "exact", NULL};

/* Parses the words of `line` (split at spaces; "{}" stands for an empty
 * argument) into *a; returns the status, the message in err. */
static ev_status parse(const char *line, args_t *a, opt_result *res, ev_error *err)
{
    const opt_spec_t opts[] = {
        {.name = "--quiet", .kind = OPT_FLAG, .dest = &a->quiet},
        {.name = "--out", .kind = OPT_STRING, .dest = &a->out},
        {.name = "--seed", .kind = OPT_U64, .dest = &a->seed, .hi = UINT64_MAX},
        {.name = "--count", .kind = OPT_I64, .dest = &a->count, .hi = 1000},
        {.name = "--level", .kind = OPT_INT, .dest = &a->level, .lo = 1, .hi = 9, .seen = &a->level_seen},
        {.name = "--mode", .kind = OPT_CHOICE, .dest = &a->mode, .choices = modes},
        {.name = "--call", .kind = OPT_CALL, .dest = a->called, .call = remember},
    };
    const opt_table_t t = {.opts = opts,
                           .n_opts = (int)(sizeof opts / sizeof opts[0]),
                           .positional = a->pos,
                           .max_positional = 2,
                           .n_positional = &a->n_pos,
                           .positional_hint = "two files at most"};
    static char buf[512];
    char *argv[32];
    int argc = 0;
    memset(a, 0, sizeof *a);
    a->level = 5;
    a->mode = -1;
    argv[argc++] = (char *)"cmd";
    snprintf(buf, sizeof buf, "%s", line);
    for (char *w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " "))
        argv[argc++] = strcmp(w, "{}") ? w : (char *)"";
    memset(err, 0, sizeof *err);
    return opt_parse(&t, argc, argv, res, err);
}

static void expect_ok(const char *line, args_t *a)
{
    opt_result res;
    ev_error err;
    ev_status st = parse(line, a, &res, &err);
    if (st != EV_OK || res != OPT_DONE)
        fprintf(stderr, "'%s': %s\n", line, err.msg);
    CHECK(st == EV_OK && res == OPT_DONE);
}

static void expect_error(const char *line, const char *msg)
{
    args_t a;
    opt_result res;
    ev_error err;
    ev_status st = parse(line, &a, &res, &err);
    if (st != EV_EUSAGE)
        fprintf(stderr, "'%s': expected a usage error\n", line);
    CHECK_EQ_I64(EV_EUSAGE, st);
    CHECK_STR(msg, err.msg);
}

static void spellings(void)
{
    args_t a, b;
    expect_ok("--out o.h5 --seed 42 --count 7 --level 3 --mode slow --call x --quiet in.yaml", &a);
    expect_ok("--out=o.h5 --seed=42 --count=7 --level=3 --mode=slow --call=x --quiet in.yaml", &b);
    CHECK_STR("o.h5", a.out);
    CHECK_STR("o.h5", b.out);
    CHECK(a.seed == 42 && b.seed == 42);
    CHECK(a.count == 7 && b.count == 7);
    CHECK(a.level == 3 && b.level == 3 && a.level_seen && b.level_seen);
    CHECK(a.mode == 1 && b.mode == 1);
    CHECK_STR("--call=x", a.called);
    CHECK_STR("--call=x", b.called);
    CHECK(a.quiet && b.quiet);
    CHECK(a.n_pos == 1 && b.n_pos == 1);
    CHECK_STR("in.yaml", a.pos[0]);

    /* nothing given: the defaults stay */
    expect_ok("", &a);
    CHECK(a.level == 5 && !a.level_seen && a.out == NULL && a.n_pos == 0 && a.mode == -1);

    /* after a space the value is the next argument, whatever it is */
    expect_ok("--out --quiet", &a);
    CHECK_STR("--quiet", a.out);
    CHECK(!a.quiet);
    /* after '=' it is the rest, '=' included, or empty */
    expect_ok("--out=a=b", &a);
    CHECK_STR("a=b", a.out);
    expect_ok("--out=", &a);
    CHECK_STR("", a.out);
    expect_ok("--out {}", &a);
    CHECK_STR("", a.out);

    /* the last one wins */
    expect_ok("--seed 1 --seed=2 --out a --out b --mode exact --mode fast", &a);
    CHECK(a.seed == 2 && a.mode == 0);
    CHECK_STR("b", a.out);

    /* positionals anywhere, in order */
    expect_ok("a --quiet b", &a);
    CHECK(a.n_pos == 2 && a.quiet);
    CHECK_STR("a", a.pos[0]);
    CHECK_STR("b", a.pos[1]);
}

static void help(void)
{
    args_t a;
    opt_result res;
    ev_error err;
    CHECK(parse("--help", &a, &res, &err) == EV_OK && res == OPT_HELP);
    CHECK(parse("-h", &a, &res, &err) == EV_OK && res == OPT_HELP);
    /* help stops the parse: what follows is not looked at */
    CHECK(parse("--quiet --help --bogus", &a, &res, &err) == EV_OK && res == OPT_HELP);
    /* a mistake before it is reported */
    CHECK(parse("--bogus --help", &a, &res, &err) == EV_EUSAGE);
    /* --help as the value of an option is that value */
    CHECK(parse("--out --help", &a, &res, &err) == EV_OK && res == OPT_DONE);
    CHECK_STR("--help", a.out);
    expect_error("--help=1", "unknown option '--help=1'");
}

static void numbers(void)
{
    args_t a;
    const char *const bad[] = {"{}",
                               "+5",
                               "-1",
                               "5x",
                               "x5",
                               " 5",
                               "5 ",
                               "0x10",
                               "1e3",
                               "1.0",
                               "5,000",
                               "99999999999999999999",
                               "18446744073709551616",
                               "-0"};
    char line[64], msg[160];
    expect_ok("--seed 0", &a);
    CHECK(a.seed == 0);
    expect_ok("--seed 18446744073709551615", &a);
    CHECK(a.seed == UINT64_MAX);
    expect_ok("--seed 007", &a);
    CHECK(a.seed == 7);
    expect_ok("--level 1", &a);
    CHECK(a.level == 1);
    expect_ok("--level=9", &a);
    CHECK(a.level == 9);
    expect_ok("--count 1000", &a);
    CHECK(a.count == 1000);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *v = strcmp(bad[i], "{}") ? bad[i] : "";
        if (strchr(v, ' ')) /* the splitter of parse() cannot hold it: use '=' with opt_parse_u64 */
            continue;
        snprintf(line, sizeof line, "--seed %s", bad[i]);
        snprintf(msg, sizeof msg, "--seed: expected an integer 0..18446744073709551615, got '%s'", v);
        expect_error(line, msg);
        snprintf(line, sizeof line, "--seed=%s", v);
        expect_error(line, msg);
    }
    expect_error("--level 0", "--level: expected an integer 1..9, got '0'");
    expect_error("--level=10", "--level: expected an integer 1..9, got '10'");
    expect_error("--level 4294967297", "--level: expected an integer 1..9, got '4294967297'");
    expect_error("--count 1001", "--count: expected an integer 0..1000, got '1001'");
    expect_error("--count -1", "--count: expected an integer 0..1000, got '-1'");

    /* the rule alone, spaces included */
    {
        uint64_t v = 3;
        ev_error err;
        CHECK(opt_parse_u64("--n", " 5", 0, 10, &v, &err) == EV_EUSAGE);
        CHECK_STR("--n: expected an integer 0..10, got ' 5'", err.msg);
        CHECK(opt_parse_u64("--n", "5 ", 0, 10, &v, &err) == EV_EUSAGE);
        CHECK(opt_parse_u64("--n", "\t5", 0, 10, &v, &err) == EV_EUSAGE);
        CHECK(v == 3);
        CHECK(opt_parse_u64("--n", "10", 0, 10, &v, &err) == EV_OK && v == 10);
    }
}

static void mistakes(void)
{
    expect_error("--bogus", "unknown option '--bogus'");
    expect_error("--bogus=1", "unknown option '--bogus=1'");
    expect_error("--", "unknown option '--'");
    expect_error("-", "unknown option '-'");
    expect_error("-q", "unknown option '-q'");
    expect_error("--qui", "unknown option '--qui'"); /* no abbreviations */
    expect_error("--quiets", "unknown option '--quiets'");
    expect_error("--out", "--out needs a value");
    expect_error("--quiet --seed", "--seed needs a value");
    expect_error("--quiet=1", "--quiet takes no value, got '--quiet=1'");
    expect_error("--quiet=", "--quiet takes no value, got '--quiet='");
    expect_error("--mode medium", "--mode: expected one of fast, slow, exact, got 'medium'");
    expect_error("--mode=", "--mode: expected one of fast, slow, exact, got ''");
    expect_error("--call bad", "--call: not 'bad'");
    expect_error("a b c", "unexpected argument 'c': two files at most");
    /* the first mistake is the one reported */
    expect_error("--seed x --bogus", "--seed: expected an integer 0..18446744073709551615, got 'x'");
}

static void spelt(void)
{
    CHECK(opt_is("--output", "--output"));
    CHECK(opt_is("--output=x.h5", "--output"));
    CHECK(!opt_is("--outputs", "--output"));
    CHECK(!opt_is("--out", "--output"));
}

int main(void)
{
    spellings();
    help();
    numbers();
    mistakes();
    spelt();
    return check_exit();
}
