/* Unit tests of src/config: the tuning-file format, its errors, resolution. */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/config/config.h"
#include "../../src/config/learned.h"
#include "../../src/config/units.h"
#include "check_main.h"

static logp_status_t parse(const char *text, logp_config_t *cfg, char *err)
{
    return logp_config_parse(cfg, text, strlen(text), "t.conf", err, 640);
}

static void expect_error(const char *text, const char *where, const char *what)
{
    logp_config_t cfg;
    char err[640] = "";
    ck_assert_int_eq(parse(text, &cfg, err), LOGP_ERR_PARSE);
    ck_assert_msg(strstr(err, where) != NULL, "'%s' lacks '%s'", err, where);
    ck_assert_msg(strstr(err, what) != NULL, "'%s' lacks '%s'", err, what);
    ck_assert_int_eq(cfg.nsections, 0);
}

START_TEST(test_units)
{
    double v;
    ck_assert_int_eq(logp_units_time("1.5", &v), LOGP_OK);
    ck_assert(fabs(v - 1.5e-6) < 1e-18);
    ck_assert_int_eq(logp_units_time("200ns", &v), LOGP_OK);
    ck_assert(fabs(v - 200e-9) < 1e-18);
    ck_assert_int_eq(logp_units_time("2ms", &v), LOGP_OK);
    ck_assert_int_eq(logp_units_time("1s", &v), LOGP_OK);
    ck_assert(v == 1.0);
    ck_assert_int_eq(logp_units_time("-1us", &v), LOGP_ERR_PARSE);
    ck_assert_int_eq(logp_units_time("1 furlong", &v), LOGP_ERR_PARSE);
    ck_assert_int_eq(logp_units_time("nan", &v), LOGP_ERR_PARSE);
    ck_assert_int_eq(logp_units_per_byte("0.1ns/B", &v), LOGP_OK);
    ck_assert(fabs(v - 0.1e-9) < 1e-20);
    ck_assert_int_eq(logp_units_per_byte("10GB/s", &v), LOGP_OK);
    ck_assert(fabs(v - 0.1e-9) < 1e-20);
    ck_assert_int_eq(logp_units_per_byte("0GB/s", &v), LOGP_ERR_PARSE);
    /* byte counts: binary units, nothing else after the digits */
    size_t b = 0;
    const struct {
        const char *text;
        size_t want;
    } ok[] = {{"0", 0}, {"8", 8}, {"8B", 8}, {"64K", 65536}, {"64KiB", 65536}, {"1MiB", 1048576},
              {"4M", 4194304}, {"2G", (size_t)2 << 30}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        ck_assert_int_eq(logp_units_bytes(ok[i].text, &b), LOGP_OK);
        ck_assert_uint_eq(b, ok[i].want);
    }
    const char *bad[] = {"", "abc", "-1", " 8", "8 K", "64k", "64KB", "1.5M", "1e3", "99999999999999999999",
                         "18446744073709551615K"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(logp_units_bytes(bad[i], &b) == LOGP_ERR_PARSE, "'%s' accepted", bad[i]);
    long n = 0;
    ck_assert_int_eq(logp_units_count("42", 1, 100, &n), LOGP_OK);
    ck_assert_int_eq(n, 42);
    ck_assert_int_eq(logp_units_count("-3", -5, 5, &n), LOGP_OK);
    ck_assert_int_eq(n, -3);
    ck_assert_int_eq(logp_units_count("0", 1, 100, &n), LOGP_ERR_PARSE);
    ck_assert_int_eq(logp_units_count("8x", 1, 100, &n), LOGP_ERR_PARSE);
    ck_assert_int_eq(logp_units_count("", 1, 100, &n), LOGP_ERR_PARSE);
    ck_assert_int_eq(logp_units_count("99999999999999999999", 1, 100, &n), LOGP_ERR_PARSE);
}
END_TEST

/* The files' numbers read the same whatever LC_NUMERIC the application set
 * (under de_DE, strtod stops at the '.' of "1.6us"), and a UTF-8 byte order
 * mark is skipped.  Needs the de_DE.UTF-8 locale (scripts/test.sh makes it
 * where it can; without it the locale half is skipped, said on stdout). */
START_TEST(test_numbers_any_locale)
{
    const char *text = "\xEF\xBB\xBF[default]\nL = 1.6us\nG = 12.5GB/s\n[host fast]\nspeed = 1.5\n"
                       "[size 4-4]\ncorrection = bcast binomial 1K 2.5\n";
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) {
            printf("note: no de_DE.UTF-8 locale here: the comma-decimal half of test_numbers_any_locale skipped\n");
            break;
        }
        logp_config_t cfg;
        char err[640] = "";
        int parsed = parse(text, &cfg, err) == 0;
        logp_resolved_t r = {0};
        logp_comm_facts_t f = {4, "w", 0};
        if (parsed) {
            logp_config_resolve(&cfg, &f, &r);
            logp_config_free(&cfg);
        }
        double t = 0.0, t2 = 0.0;
        int dot = logp_units_time("2.5ms", &t), comma = logp_units_time("2,5ms", &t2);
        setlocale(LC_NUMERIC, "C"); /* before any assertion: the later tests (CK_FORK=no) run in "C" */
        ck_assert_msg(parsed, "pass %d: %s", pass, err);
        ck_assert_msg(fabs(r.params.L - 1.6e-6) < 1e-15 && fabs(r.params.G - 0.08e-9) < 1e-21, "pass %d: L %g G %g",
                      pass, r.params.L, r.params.G);
        ck_assert(dot == 0 && fabs(t - 2.5e-3) < 1e-15);
        ck_assert(comma != 0); /* the comma is not a decimal point in a file */
    }
}
END_TEST

START_TEST(test_cascade)
{
    const char *text = "# cluster\n[default]\nL = 1.6us\no = 0.4us  # comment\ng = 0.6us\nG = 10GB/s\ngamma = 0.3ns/B\n"
                       "[intra-node]\nL = 0.2us\ncopy = 20GB/s\nfresh = 0.5ns/B\n[size 2-64]\nreduce = chain-adaptive\nchain_k = 6\n"
                       "[name MPI_COMM_WORLD]\nL = 3us\nbcast = binomial\n[inter-node]\ng=1000ns\n";
    logp_config_t cfg;
    char err[640];
    ck_assert_int_eq(parse(text, &cfg, err), 0);
    ck_assert_int_eq(cfg.nsections, 5);
    logp_resolved_t r;
    logp_comm_facts_t f = {32, "MPI_COMM_WORLD", 1};
    logp_config_resolve(&cfg, &f, &r);
    ck_assert(fabs(r.params.L - 3e-6) < 1e-15); /* name after intra-node wins */
    ck_assert(fabs(r.params.G - 0.1e-9) < 1e-20);
    ck_assert(fabs(r.params.g - 0.6e-6) < 1e-15); /* inter-node does not match */
    ck_assert(fabs(r.params.copy - 0.05e-9) < 1e-20); /* intra-node's copy, 20 GB/s */
    ck_assert(fabs(r.params.fresh - 0.5e-9) < 1e-20);
    ck_assert_int_eq(r.algo[LOGP_COLL_REDUCE], LOGP_ALGO_CHAIN_ADAPTIVE);
    ck_assert_int_eq(r.algo[LOGP_COLL_BCAST], LOGP_ALGO_BINOMIAL);
    ck_assert_int_eq(r.algo[LOGP_COLL_ALLTOALL], LOGP_ALGO_AUTO);
    ck_assert_int_eq(r.chain_k, 6);
    ck_assert_ptr_nonnull(strstr(r.matched, "[size 2-64]"));
    logp_comm_facts_t f2 = {128, "other", 0};
    logp_config_resolve(&cfg, &f2, &r);
    ck_assert(fabs(r.params.L - 1.6e-6) < 1e-15);
    ck_assert(fabs(r.params.g - 1e-6) < 1e-15);
    ck_assert_int_eq(r.algo[LOGP_COLL_REDUCE], LOGP_ALGO_AUTO);
    ck_assert_int_eq(r.chain_k, 4);
    ck_assert(r.basis == 0); /* no basis: hand-written corrections, kept */
    logp_config_free(&cfg);
    /* the learned file's basis: the last matching section's */
    ck_assert_int_eq(parse("[default]\nbasis = 00000000000000aB\n[size 2-64]\nbasis = fedcba9876543210\n", &cfg, err),
                     0);
    logp_config_resolve(&cfg, &f, &r);
    ck_assert(r.basis == 0xfedcba9876543210ull);
    logp_config_resolve(&cfg, &f2, &r);
    ck_assert(r.basis == 0xabull);
    logp_config_free(&cfg);
    /* no file: the built-in defaults */
    logp_config_resolve(NULL, &f, &r);
    logp_params_t d = logp_params_default();
    ck_assert(r.params.L == d.L && r.params.gamma == d.gamma && r.params.copy == d.copy && d.copy > 0.0 &&
              r.params.fresh == d.fresh && d.fresh > 0.0);
}
END_TEST

START_TEST(test_errors)
{
    expect_error("[default]\nlatency = 1us\n", "t.conf:2:", "unknown key 'latency'");
    expect_error("[default]\nL = 1 parsec\n", "t.conf:2:", "expected a non-negative time");
    expect_error("[default]\no = -0.5us\n", "t.conf:2:", "non-negative");
    expect_error("[default]\nG = 3 apples\n", "t.conf:2:", "bandwidth");
    expect_error("[size 64-2]\n", "t.conf:1:", "reversed");
    expect_error("[size 2-64]\n[size 32-128]\n", "t.conf:2:", "overlaps [size 2-64] of line 1");
    expect_error("[default\nL = 1us\n", "t.conf:1:", "unterminated section");
    expect_error("[nodes]\n", "t.conf:1:", "unknown section");
    expect_error("L = 1us\n", "t.conf:1:", "before any section");
    expect_error("[default]\nbcast = fastest\n", "t.conf:2:", "unknown algorithm (known: native auto");
    expect_error("[default]\nreduce = ring\n", "t.conf:2:", "unknown algorithm");
    expect_error("[default]\nchain_k = 0\n", "t.conf:2:", "integer 1..");
    expect_error("[default]\nL\n", "t.conf:2:", "expected key = value");
    expect_error("[default]\nL =\n", "t.conf:2:", "no value");
    expect_error("[host]\n", "t.conf:1:", "unknown section");
    expect_error("[host n*]\nL = 1us\n", "t.conf:2:", "a [host] section sets only speed");
    expect_error("[host n*]\nspeed = 0\n", "t.conf:2:", "relative speed > 0");
    expect_error("[host n*]\nspeed = fast\n", "t.conf:2:", "relative speed > 0");
    expect_error("[default]\nspeed = 2\n", "t.conf:2:", "only a [host PATTERN] section");
    expect_error("[default]\nranks_per_node = 0\n", "t.conf:2:", "integer 1..");
    expect_error("[inter-node]\nranks_per_node = 4\n", "t.conf:2:", "not in [intra-node] or [inter-node]");
    expect_error("[default]\nnetwork = fast\n", "t.conf:2:", "expected loggp");
    expect_error("[host n*]\nnetwork = shared\n", "t.conf:2:", "a [host] section sets only speed");
    /* sane ranges: absurd values are typos, not machines */
    expect_error("[default]\nL = 1e298s\n", "t.conf:2:", "above 1 s");
    expect_error("[default]\ng = 1.5s\n", "t.conf:2:", "above 1 s");
    expect_error("[default]\nG = 1B/s\n", "t.conf:2:", "above 1 ms/B");
    expect_error("[default]\ngamma = 2ms/B\n", "t.conf:2:", "above 1 ms/B");
    expect_error("[default]\ncopy = -1ns/B\n", "t.conf:2:", "copy");
    expect_error("[default]\nfresh = fast\n", "t.conf:2:", "fresh");
    expect_error("[size 2-2]\nbasis = 12345\n", "t.conf:2:", "basis = 12345: expected 16 hex digits");
    expect_error("[size 2-2]\nbasis = 0x00000000abcdef\n", "t.conf:2:", "expected 16 hex digits");
    expect_error("[size 2-2]\nbasis = 0000000000000000\n", "t.conf:2:", "not all 0");
    expect_error("[size 2-2]\nbasis = 0123456789abcdeg\n", "t.conf:2:", "expected 16 hex digits");
    expect_error("[host n*]\nbasis = 0123456789abcdef\n", "t.conf:2:", "outside [host]");
    expect_error("[default]\nchain_k = 1073741824\n", "t.conf:2:", "integer 1..1048576");
    expect_error("[default]\nranks_per_node = 2000000\n", "t.conf:2:", "integer 1..1048576");
    expect_error("[host n*]\nspeed = 1e-300\n", "t.conf:2:", "from 0.001 to 1000");
    expect_error("[host n*]\nspeed = 1e6\n", "t.conf:2:", "from 0.001 to 1000");
    expect_error("[host n*]\nspeed = nan\n", "t.conf:2:", "from 0.001 to 1000");
    /* overlaps found whatever the order: not adjacent in the file, nested,
     * equal, and the earliest later line reported */
    expect_error("[size 1-9]\n[size 20-30]\n[size 40-50]\n[size 25]\n", "t.conf:4:",
                 "size range 25-25 overlaps [size 20-30] of line 2");
    expect_error("[size 100-200]\n[size 1-2]\n[size 1-1000]\n", "t.conf:3:", "overlaps [size");
    expect_error("[size 5]\n[default]\n[size 5]\n[size 4-6]\n", "t.conf:3:", "size range 5-5 overlaps [size 5-5] of line 1");
    /* binary garbage, and a 10 MB line */
    logp_config_t cfg;
    char err[640];
    const char bin[] = "[default]\nL = 1us\n\x01\x02\xff\x00zz\n";
    ck_assert_int_eq(logp_config_parse(&cfg, bin, sizeof bin - 1, "b.conf", err, sizeof err), LOGP_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "b.conf:3: binary data"));
    size_t n = 10u << 20;
    char *big = malloc(n + 16);
    memcpy(big, "[default]\n", 10);
    memset(big + 10, 'x', n);
    ck_assert_int_eq(logp_config_parse(&cfg, big, n + 10, "big.conf", err, sizeof err), LOGP_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "big.conf:2: line longer than"));
    free(big);
    /* 10 MB of disjoint [size] sections: refused at the section limit, with
     * the line, after reading only what precedes it; at the limit itself
     * the file is accepted (the overlap check sorts: O(n log n)) */
    size_t cap = 10u << 20, len = 0;
    big = malloc(cap + 64);
    for (int k = 1; len < cap; k++)
        len += (size_t)sprintf(big + len, "[size %d]\nL = 1us\n", k);
    ck_assert_int_eq(logp_config_parse(&cfg, big, len, "many.conf", err, sizeof err), LOGP_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "many.conf:20001: more than 10000 sections"));
    len = 0;
    for (int k = LOGP_CONFIG_MAX_SECTIONS; k >= 1; k--) /* reverse order: the sort does the work */
        len += (size_t)sprintf(big + len, "[size %d]\n", 3 * k);
    ck_assert_int_eq(logp_config_parse(&cfg, big, len, "many.conf", err, sizeof err), LOGP_OK);
    ck_assert_int_eq(cfg.nsections, LOGP_CONFIG_MAX_SECTIONS);
    logp_config_free(&cfg);
    len += (size_t)sprintf(big + len, "[size 2-3]\n"); /* one too many */
    ck_assert_int_eq(logp_config_parse(&cfg, big, len, "many.conf", err, sizeof err), LOGP_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "more than 10000 sections"));
    len = 0;
    for (int k = LOGP_CONFIG_MAX_SECTIONS - 1; k >= 1; k--)
        len += (size_t)sprintf(big + len, "[size %d]\n", 3 * k);
    len += (size_t)sprintf(big + len, "[size 4-6]\n"); /* overlaps [size 6], line 9998 */
    ck_assert_int_eq(logp_config_parse(&cfg, big, len, "many.conf", err, sizeof err), LOGP_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "many.conf:10000: size range 4-6 overlaps [size 6-6] of line 9998"));
    free(big);
    ck_assert_int_eq(logp_config_load(&cfg, "/nonexistent/pmpi-logp.conf", err, sizeof err), LOGP_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/pmpi-logp.conf: cannot read"));
}
END_TEST

/* [host PATTERN] speeds (last match wins, shell patterns) and the
 * ranks_per_node override; [host] never applies to a communicator. */
/* pmpi-logp check's view: every error (not only the first) and the
 * warnings, each with file:line; a file with warnings only is valid. */
START_TEST(test_lint)
{
    char path[] = "/tmp/check_config_lint_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char text[] = "[default]\nL = 1us\nL = 2us\ng = 0\nG = 0\no = 1 parsec\n[size 2-8]\n[size 4]\nfoo = 1\n";
    ck_assert_int_eq((int)write(fd, text, sizeof text - 1), (int)(sizeof text - 1));
    close(fd);
    logp_config_t cfg;
    static logp_config_diag_t diag;
    ck_assert_int_eq(logp_config_lint(&cfg, path, &diag), LOGP_ERR_PARSE);
    ck_assert_int_eq(diag.errors, 3);
    ck_assert_int_eq(diag.warnings, 3);
    ck_assert_int_eq(cfg.nsections, 0);
    const char *want[] = {":3: warning: L is set twice", ":4: warning: g = 0", ":5: warning: G = 0",
                          ":6: o = 1 parsec", ":9: unknown key 'foo'", ":8: size range 4-4 overlaps [size 2-8] of line 7"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(diag.text, want[i]) != NULL, "missing '%s' in:\n%s", want[i], diag.text);
    /* warnings only: valid, and the shim's parser (no warnings) agrees */
    fd = open(path, O_WRONLY | O_TRUNC);
    const char ok[] = "[default]\nL = 1us\nL = 2us\n";
    ck_assert_int_eq((int)write(fd, ok, sizeof ok - 1), (int)(sizeof ok - 1));
    close(fd);
    ck_assert_int_eq(logp_config_lint(&cfg, path, &diag), LOGP_OK);
    ck_assert_int_eq(diag.errors, 0);
    ck_assert_int_eq(diag.warnings, 1);
    logp_config_free(&cfg);
    /* a file that cannot be read is one error, and not the file's fault */
    ck_assert_int_eq(logp_config_lint(&cfg, "/nonexistent/pmpi-logp.conf", &diag), LOGP_ERR_IO);
    ck_assert_int_eq(diag.errors, 1);
    char err[640];
    ck_assert_int_eq(logp_config_load(&cfg, path, err, sizeof err), 0);
    ck_assert(cfg.sections[0].params.L == 2e-6);
    logp_config_free(&cfg);
    unlink(path);
}
END_TEST

START_TEST(test_hosts)
{
    const char *text = "[default]\nranks_per_node = 8\n[host node*]\nspeed = 0.5\n"
                       "[host node1?]\nspeed = 2\n[name small]\nranks_per_node = 2\n";
    logp_config_t cfg;
    char err[640];
    ck_assert_msg(logp_config_parse(&cfg, text, strlen(text), "h.conf", err, sizeof err) == 0, "%s", err);
    ck_assert(logp_config_host_speed(&cfg, "node3") == 0.5);
    ck_assert(logp_config_host_speed(&cfg, "node12") == 2.0);
    ck_assert(logp_config_host_speed(&cfg, "login1") == 1.0);
    logp_resolved_t r;
    logp_comm_facts_t f = {16, "MPI_COMM_WORLD", 0};
    logp_config_resolve(&cfg, &f, &r);
    ck_assert_int_eq(r.ranks_per_node, 8);
    ck_assert_ptr_null(strstr(r.matched, "host"));
    f.name = "small";
    logp_config_resolve(&cfg, &f, &r);
    ck_assert_int_eq(r.ranks_per_node, 2);
    logp_config_free(&cfg);
    logp_config_resolve(NULL, &f, &r);
    ck_assert_int_eq(r.ranks_per_node, 0); /* from MPI */
    ck_assert_int_eq(r.shared, 1); /* between nodes the interfaces share, unless a file says */
    f.intra_node = 1;
    logp_config_resolve(NULL, &f, &r);
    ck_assert_int_eq(r.shared, 0); /* within one node LogGP */
    f.intra_node = 0;
    /* network: the last matching section wins */
    text = "[default]\nnetwork = shared\n[size 1-8]\nnetwork = loggp\n";
    ck_assert_msg(logp_config_parse(&cfg, text, strlen(text), "n.conf", err, sizeof err) == 0, "%s", err);
    logp_config_resolve(&cfg, &f, &r);
    ck_assert_int_eq(r.shared, 1);
    f.size = 8;
    logp_config_resolve(&cfg, &f, &r);
    ck_assert_int_eq(r.shared, 0);
    f.intra_node = 1; /* a file's key holds within a node too */
    f.size = 16;
    logp_config_resolve(&cfg, &f, &r);
    ck_assert_int_eq(r.shared, 1);
    logp_config_free(&cfg);
}
END_TEST

/* The shipped files parse (the test runs from the build directory). */
START_TEST(test_shipped_files)
{
    const char *top = getenv("top_srcdir");
    const char *files[] = {"default.conf", "template.conf", "example-2core-shm.conf", "example-cluster.conf"};
    for (int i = 0; i < 4; i++) {
        char path[1024], err[640];
        snprintf(path, sizeof path, "%s/tuning/%s", top ? top : ".", files[i]);
        logp_config_t cfg;
        ck_assert_msg(logp_config_load(&cfg, path, err, sizeof err) == 0, "%s", err);
        ck_assert_int_gt(cfg.nsections, 0);
        logp_config_free(&cfg);
    }
}
END_TEST

START_TEST(test_rules)
{
    /* a hand-written rule set: "logp-tree up to 4 KiB, native above" */
    const char *text = "[default]\nrule = bcast 1-4K logp-tree\nrule = bcast 4K-2G native\n"
                       "[size 4-4]\nrule = reduce 1M-2M commutative reduce-scatter-gather  # learned\n"
                       "correction = reduce native 1M 2.5\ncorrection = bcast binomial 8 0.5\n";
    logp_config_t cfg;
    char err[640];
    ck_assert_int_eq(parse(text, &cfg, err), 0);
    logp_resolved_t r;
    logp_comm_facts_t f = {4, "", 1};
    logp_config_resolve(&cfg, &f, &r);
    /* classes decided at ~1.4 x 2^k: 4096's class (mid 5632) is past 4 KiB */
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][logp_learn_class(8)][1], LOGP_ALGO_LOGP_TREE);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][logp_learn_class(2048)][1], LOGP_ALGO_LOGP_TREE);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][logp_learn_class(4096)][0], LOGP_ALGO_NATIVE);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][30][1], LOGP_ALGO_NATIVE);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_REDUCE][20][1], LOGP_ALGO_REDUCE_SCATTER_GATHER);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_REDUCE][20][0], LOGP_ALGO_COUNT); /* commutative only */
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_REDUCE][19][1], LOGP_ALGO_COUNT);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_ALLTOALL][3][1], LOGP_ALGO_COUNT);
    ck_assert(fabs(logp_learn_factor(&r.rules.learn, LOGP_COLL_REDUCE, LOGP_ALGO_NATIVE, 20) - 2.5) < 1e-6);
    ck_assert(fabs(logp_learn_factor(&r.rules.learn, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 3) - 0.5) < 1e-6);
    ck_assert(logp_learn_factor(&r.rules.learn, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, 3) == 1.0);
    /* auto's correction: the default of every algorithm without its own */
    logp_config_free(&cfg);
    ck_assert_int_eq(parse("[default]\ncorrection = bcast binomial 8 0.5\ncorrection = bcast auto 8 0.25\n", &cfg, err), 0);
    logp_config_resolve(&cfg, &f, &r);
    ck_assert(fabs(logp_learn_factor(&r.rules.learn, LOGP_COLL_BCAST, LOGP_ALGO_BINOMIAL, 3) - 0.5) < 1e-6);
    ck_assert(fabs(logp_learn_factor(&r.rules.learn, LOGP_COLL_BCAST, LOGP_ALGO_FLAT, 3) - 0.25) < 1e-6);
    ck_assert(fabs(logp_learn_factor(&r.rules.learn, LOGP_COLL_BCAST, LOGP_ALGO_NATIVE, 9) - 0.25) < 1e-6);
    ck_assert(logp_learn_factor(&r.rules.learn, LOGP_COLL_REDUCE, LOGP_ALGO_FLAT, 3) == 1.0);
    logp_config_free(&cfg);
    ck_assert_int_eq(parse(text, &cfg, err), 0);
    logp_config_resolve(&cfg, &f, &r);
    /* another size: the [size 4-4] rules do not apply */
    logp_comm_facts_t f8 = {8, "", 1};
    logp_config_resolve(&cfg, &f8, &r);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_REDUCE][20][1], LOGP_ALGO_COUNT);
    ck_assert(logp_learn_factor(&r.rules.learn, LOGP_COLL_REDUCE, LOGP_ALGO_NATIVE, 20) == 1.0);
    /* a second file on top (the learned file after the tuning file) */
    logp_config_t more;
    ck_assert_int_eq(parse("[size 8-8]\nrule = bcast 1-2G binomial\n", &more, err), 0);
    logp_config_resolve_more(&more, &f8, &r);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][3][1], LOGP_ALGO_BINOMIAL);
    logp_config_free(&more);
    logp_config_free(&cfg);
    expect_error("[default]\nrule = bcast 1-4K\n", "t.conf:2:", "expected rule = COLL LO-HI");
    expect_error("[default]\nrule = gather 1-4K binomial\n", "t.conf:2:", "unknown collective");
    expect_error("[default]\nrule = bcast 1-4K chain\n", "t.conf:2:", "not an algorithm of bcast");
    expect_error("[default]\nrule = bcast 4K-1K binomial\n", "t.conf:2:", "LO <= HI");
    expect_error("[default]\nrule = bcast 4500-5000 binomial\n", "t.conf:2:", "covers no size class");
    expect_error("[default]\nrule = bcast 1-4K commutative binomial\n", "t.conf:2:", "(reduce and allreduce only)");
    /* alltoallv's ranks sit in classes of their own: the library only for every size */
    expect_error("[default]\nrule = alltoallv 1-4K native\n", "t.conf:2:", "alltoallv cannot name native by size");
    {
        logp_config_t v;
        char e[640] = "";
        ck_assert_int_eq(parse("[default]\nrule = alltoallv 1-4K linear\nalltoallv = native\n", &v, e), 0);
        logp_config_free(&v);
    }
    expect_error("[default]\ncorrection = reduce native 1M 0\n", "t.conf:2:", "factor 0.001..1000");
    expect_error("[default]\ncorrection = reduce auto 1M 1e9\n", "t.conf:2:", "factor 0.001..1000");
    expect_error("[default]\ncorrection = reduce native 1M\n", "t.conf:2:", "expected correction = COLL");
    expect_error("[host n*]\nrule = bcast 1-4K binomial\n", "t.conf:2:", "only speed");
    expect_error("[size 2-4]\nlearn = /tmp/x.conf\n", "t.conf:2:", "in [default] only");
    /* explore: a rule not settled, its untried candidates (the rule's own algorithm left out) */
    ck_assert_int_eq(parse("[size 4-4]\nrule = reduce 8-15 commutative native\nrule = bcast 8-31 binomial\n"
                           "explore = reduce 8-15 commutative two-tree,chain after 250\nexplore = bcast 16-31 flat\n",
                           &cfg, err), 0);
    logp_config_resolve(&cfg, &f, &r);
    ck_assert_uint_eq(r.rules.explore[LOGP_COLL_REDUCE][3][1], 1u << LOGP_ALGO_TWO_TREE | 1u << LOGP_ALGO_CHAIN);
    ck_assert_uint_eq(r.rules.explore[LOGP_COLL_REDUCE][3][0], 0);
    ck_assert_uint_eq(r.rules.after[LOGP_COLL_REDUCE][3][1], 250);
    ck_assert_uint_eq(r.rules.after[LOGP_COLL_BCAST][4][1], 0);
    ck_assert_uint_eq(r.rules.explore[LOGP_COLL_BCAST][4][1], 1u << LOGP_ALGO_FLAT);
    ck_assert_uint_eq(r.rules.explore[LOGP_COLL_BCAST][3][1], 0);
    /* it travels with its rule: a later file's rule for the class settles it */
    ck_assert_int_eq(parse("[size 4-4]\nrule = bcast 16-31 logp-tree\n", &more, err), 0);
    logp_config_resolve_more(&more, &f, &r);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][4][1], LOGP_ALGO_LOGP_TREE);
    ck_assert_uint_eq(r.rules.explore[LOGP_COLL_BCAST][4][1], 0);
    ck_assert_uint_eq(r.rules.explore[LOGP_COLL_REDUCE][3][1], 1u << LOGP_ALGO_TWO_TREE | 1u << LOGP_ALGO_CHAIN);
    logp_config_free(&more);
    logp_config_free(&cfg);
    /* and a rule after it in the section clears it */
    ck_assert_int_eq(parse("[default]\nrule = bcast 8-15 binomial\nexplore = bcast 8-15 flat\nrule = bcast 8-15 flat\n",
                           &cfg, err), 0);
    logp_config_resolve(&cfg, &f, &r);
    ck_assert_uint_eq(r.rules.explore[LOGP_COLL_BCAST][3][1], 0);
    logp_config_free(&cfg);
    expect_error("[default]\nexplore = bcast 8-15 flat\n", "t.conf:2:", "has no rule before it");
    expect_error("[default]\nrule = bcast 8-15 auto\nexplore = bcast 8-15 flat\n", "t.conf:3:", "has no rule before it");
    expect_error("[default]\nrule = bcast 8-15 flat\nexplore = bcast 8-15 flat,chain\n", "t.conf:3:",
                 "chain is not an algorithm of bcast");
    expect_error("[default]\nrule = bcast 8-15 flat\nexplore = bcast 8-15 auto\n", "t.conf:3:", "auto is not an algorithm");
    expect_error("[default]\nrule = bcast 8-15 flat\nexplore = bcast 8-15 binomial,native\n", "t.conf:3:",
                 "native is measured first by every trial");
    expect_error("[default]\nrule = bcast 8-15 flat\nexplore = bcast 8-15\n", "t.conf:3:", "expected explore = COLL");
    expect_error("[default]\nrule = bcast 8-15 flat\nexplore = bcast 8-15 binomial after -3\n", "t.conf:3:",
                 "after -3: expected 0..1000000000 calls");
    expect_error("[default]\nrule = bcast 8-15 flat\nexplore = bcast 8-15 binomial after\n", "t.conf:3:",
                 "after is not an algorithm of bcast");
    ck_assert_int_eq(parse("[default]\nlearn = /tmp/a.conf\n[default]\nlearn = /tmp/b.conf\n", &cfg, err), 0);
    ck_assert_str_eq(logp_config_learn_path(&cfg), "/tmp/b.conf");
    logp_config_free(&cfg);
    ck_assert_ptr_null(logp_config_learn_path(NULL));
}
END_TEST

/* The learned file: other sizes and hand edits kept, the written sizes
 * replaced; writers at once lose nothing; a stale temporary file (a job
 * killed mid-write) leaves the file whole. */
/* logp_learned_write of one [size P-P] section. */
static logp_status_t write1(const char *path, const char *text, int size, char *err, size_t errlen)
{
    return logp_learned_write(path, &text, &size, 1, err, errlen);
}

START_TEST(test_learned_write)
{
    char dir[] = "/tmp/logp-learned-XXXXXX", path[256], err[1200];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/learned.conf", dir);
    int s4 = 4;
    ck_assert_int_eq(write1(path, "[size 2-2]\nrule = bcast 1-15 binomial\n", 2, err, sizeof err), LOGP_OK);
    ck_assert_int_eq(write1(path, "[size 4-4]\nrule = bcast 1-15 flat\n", 4, err, sizeof err), LOGP_OK);
    ck_assert_int_eq(write1(path, "[size 2-2]\nrule = bcast 1-15 logp-tree\n", 2, err, sizeof err), LOGP_OK);
    /* a job killed between writing its temporary file and renaming it */
    char stale[300];
    snprintf(stale, sizeof stale, "%s.tmp.99999", path);
    FILE *f = fopen(stale, "w");
    fputs("[size 2-2]\nrule = bcast 1-1", f); /* cut short */
    fclose(f);
    logp_config_t cfg;
    ck_assert_int_eq(logp_config_load(&cfg, path, err, sizeof err), 0);
    ck_assert_int_eq(cfg.nsections, 2);
    logp_resolved_t r;
    logp_comm_facts_t f2 = {2, "", 1}, f4 = {4, "", 1};
    logp_config_resolve(&cfg, &f2, &r);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][3][1], LOGP_ALGO_LOGP_TREE);
    logp_config_resolve(&cfg, &f4, &r);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][3][1], LOGP_ALGO_FLAT);
    logp_config_free(&cfg);
    /* 8 jobs ending at once, each with its own size: every size is there */
    for (int k = 0; k < 8; k++)
        if (fork() == 0) {
            char text[128];
            int size = 100 + k;
            snprintf(text, sizeof text, "[size %d-%d]\nrule = reduce 1-15 binomial\n", size, size);
            for (int rep = 0; rep < 20; rep++)
                if (write1(path, text, size, err, sizeof err) != LOGP_OK)
                    _exit(1);
            _exit(0);
        }
    int st, all_ok = 1;
    while (wait(&st) > 0)
        all_ok &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
    ck_assert(all_ok);
    ck_assert_int_eq(logp_config_load(&cfg, path, err, sizeof err), 0);
    ck_assert_int_eq(cfg.nsections, 10);
    logp_config_free(&cfg);
    /* the file keeps its permissions; a symbolic link at the path is kept
     * and its target updated; a link planted at the lock's name is refused */
    struct stat sb;
    ck_assert_int_eq(chmod(path, 0640), 0);
    ck_assert_int_eq(write1(path, "[size 2-2]\nrule = bcast 1-15 binomial\n", 2, err, sizeof err), LOGP_OK);
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0640);
    char link[300], victim[300];
    snprintf(link, sizeof link, "%s/link.conf", dir);
    ck_assert_int_eq(symlink(path, link), 0);
    ck_assert_int_eq(write1(link, "[size 2-2]\nrule = bcast 1-15 flat\n", 2, err, sizeof err), LOGP_OK);
    ck_assert_int_eq(lstat(link, &sb), 0);
    ck_assert(S_ISLNK(sb.st_mode));
    ck_assert_int_eq(logp_config_load(&cfg, path, err, sizeof err), 0);
    logp_config_resolve(&cfg, &f2, &r);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][3][1], LOGP_ALGO_FLAT);
    logp_config_free(&cfg);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    f = fopen(victim, "w");
    fputs("keep\n", f);
    fclose(f);
    snprintf(link, sizeof link, "%s/other.conf.lock", dir);
    ck_assert_int_eq(symlink(victim, link), 0);
    snprintf(link, sizeof link, "%s/other.conf", dir);
    ck_assert_int_eq(write1(link, "[size 2-2]\n", 2, err, sizeof err), LOGP_ERR_IO);
    ck_assert_int_eq(stat(victim, &sb), 0);
    ck_assert_int_eq(sb.st_size, 5);
    ck_assert(logp_learned_replaces("[size 4-4]", &s4, 1));
    ck_assert(logp_learned_replaces("[size 4]", &s4, 1)); /* the other spellings the parser reads */
    ck_assert(logp_learned_replaces("  [size\t4 - 4 ]", &s4, 1));
    ck_assert(logp_learned_replaces("[ size 4 ]", &s4, 1));
    ck_assert(!logp_learned_replaces("[size 4-8]", &s4, 1));
    ck_assert(!logp_learned_replaces("[size 2-2]", &s4, 1));
    /* a size that a kept range spans is not written (the file would
     * not load: overlapping ranges), the others are; hand-written
     * [size 4] is replaced like [size 4-4] */
    snprintf(path, sizeof path, "%s/hand.conf", dir);
    f = fopen(path, "w");
    fputs("\xEF\xBB\xBF[ size 2-8 ]\nreduce = binomial\n[default]\nL = 2us\n[size 16]\nbcast = flat\n", f);
    fclose(f);
    const char *texts[3] = {"[size 4-4]\nrule = bcast 1-15 flat\n", "[size 16-16]\nrule = bcast 1-15 binomial\n",
                            "[size 32-32]\nrule = bcast 1-15 binomial\n"};
    int sizes[3] = {4, 16, 32};
    ck_assert_int_eq(logp_learned_write(path, texts, sizes, 3, err, sizeof err), LOGP_OK);
    ck_assert_msg(strstr(err, "not written for P = 4 ") != NULL, "%s", err);
    ck_assert_msg(logp_config_load(&cfg, path, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(cfg.nsections, 4); /* default, 2-8, 16 (replaced), 32 */
    logp_comm_facts_t f16 = {16, "", 1};
    logp_config_resolve(&cfg, &f16, &r);
    ck_assert_int_eq(r.rules.algo[LOGP_COLL_BCAST][3][1], LOGP_ALGO_BINOMIAL);
    ck_assert_int_eq(r.algo[LOGP_COLL_BCAST], LOGP_ALGO_AUTO); /* the hand-written [size 16]'s key went with it */
    logp_config_free(&cfg);
    /* a FIFO or an unreadable file at the path: left alone, nothing blocks */
    snprintf(path, sizeof path, "%s/fifo.conf", dir);
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    ck_assert_int_eq(write1(path, "[size 2-2]\n", 2, err, sizeof err), LOGP_ERR_IO);
    ck_assert_msg(strstr(err, "not a regular file") != NULL, "%s", err);
    if (geteuid() != 0) { /* root reads anything */
        snprintf(path, sizeof path, "%s/locked.conf", dir);
        f = fopen(path, "w");
        fputs("[size 8-8]\nbcast = flat\n", f);
        fclose(f);
        ck_assert_int_eq(chmod(path, 0200), 0);
        ck_assert_int_eq(write1(path, "[size 2-2]\n", 2, err, sizeof err), LOGP_ERR_IO);
        ck_assert_int_eq(stat(path, &sb), 0);
        ck_assert_int_eq(sb.st_size, 25); /* its [size 8-8] kept */
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        test_units,
        test_numbers_any_locale,
        test_lint,
        test_cascade,
        test_errors,
        test_shipped_files,
        test_hosts,
        test_rules,
        test_learned_write,
    };
    return logp_check_run("config", tests, (int)(sizeof tests / sizeof tests[0]));
}
