/* A small unit-test harness: named cases, checks that report file:line, a summary exit code. */
#ifndef HB_TEST_H
#define HB_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64: the next number of the pseudo-random sequence kept in *state, so a property
 * test sees the same inputs on every run. */
static inline uint64_t t_xorshift(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static int t_failures, t_checks, t_case_failed;
static const char *t_case;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		t_checks++;                                                                        \
		if (!(cond)) {                                                                     \
			t_failures++;                                                              \
			t_case_failed = 1;                                                         \
			fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__,       \
			        t_case, #cond);                                                    \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
	do {                                                                                       \
		long long t_a = (long long)(a), t_b = (long long)(b);                              \
		t_checks++;                                                                        \
		if (t_a != t_b) {                                                                  \
			t_failures++;                                                              \
			t_case_failed = 1;                                                         \
			fprintf(stderr, "%s:%d: %s: %s == %lld, expected %lld\n", __FILE__,        \
			        __LINE__, t_case, #a, t_a, t_b);                                   \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                                         \
	do {                                                                                       \
		const char *t_a = (a), *t_b = (b);                                                 \
		t_checks++;                                                                        \
		if (!t_a || !t_b || strcmp(t_a, t_b)) {                                            \
			t_failures++;                                                              \
			t_case_failed = 1;                                                         \
			fprintf(stderr, "%s:%d: %s: %s == \"%s\", expected \"%s\"\n", __FILE__,    \
			        __LINE__, t_case, #a, t_a ? t_a : "(null)", t_b ? t_b : "(null)"); \
		}                                                                                  \
	} while (0)

#define RUN(fn)                                                                                    \
	do {                                                                                       \
		t_case = #fn;                                                                      \
		t_case_failed = 0;                                                                 \
		fn();                                                                              \
		printf("%s %s\n", t_case_failed ? "FAIL" : "ok  ", #fn);                           \
	} while (0)

#define TEST_DONE()                                                                                \
	(printf("%d checks, %d failures\n", t_checks, t_failures),                                 \
	 (t_failures || !t_checks) ? 1 : 0)

#endif
