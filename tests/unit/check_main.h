/* The common main of the Check suites: run one suite, exit 1 on failure. */
#ifndef LOGP_TESTS_CHECK_MAIN_H
#define LOGP_TESTS_CHECK_MAIN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* The sampling stride of the long randomized sweeps: 1 (every case) unless
 * LOGP_TEST_STRIDE says otherwise.  The sanitizer pass of scripts/test.sh
 * sets it: instrumented code runs ~20x slower, and catching memory errors
 * needs every code path, not every random case. */
static inline int logp_check_stride(void)
{
    const char *s = getenv("LOGP_TEST_STRIDE");
    int n = s ? atoi(s) : 1;
    return n >= 1 ? n : 1;
}

/* Whether case i of a long sweep runs: every case at stride 1, else one in
 * logp_check_stride() of every residue (i mod s = (i / s) mod s), so a
 * sample still meets odd and even, small and large cases alike. */
static inline int logp_check_sampled(int i)
{
    int s = logp_check_stride();
    return s == 1 || i % s == (i / s) % s;
}

/* An assertion for hot loops: Check records the place of every ck_assert
 * (one write(2) each when it does not fork), which made the rank-by-rank
 * tests spend most of their time in the kernel; this costs nothing until
 * it fails. */
#define LOGP_CHECK(cond)                                                                                               \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            ck_abort_msg("%s:%d: failed: %s", __FILE__, __LINE__, #cond);                                               \
    } while (0)

/* Runs every test of `tests` in one test case of a suite named `name`
 * (timeout 120 s each) and returns the process exit status.
 * LOGP_TEST_SHARD=k/n runs only tests k, k + n, k + 2n, .. (0 <= k < n):
 * the sanitizer pass of scripts/test.sh runs its longest suite as two
 * processes, one per core. */
static inline int logp_check_run(const char *name, const TTest *const *tests, int n)
{
    Suite *s = suite_create(name);
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 120);
    const char *shard = getenv("LOGP_TEST_SHARD");
    int k = 0, of = 1;
    if (shard && (sscanf(shard, "%d/%d", &k, &of) != 2 || of < 1 || k < 0 || k >= of)) {
        fprintf(stderr, "LOGP_TEST_SHARD=%s: want k/n with 0 <= k < n\n", shard);
        return 1;
    }
    for (int i = k; i < n; i += of)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

#endif
