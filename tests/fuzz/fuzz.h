/* Shared by the libFuzzer harnesses: a property check that reports and aborts, and input
 * splitting into NUL-separated fields. */
#ifndef HB_FUZZ_H
#define HB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken property is a crash for libFuzzer: print what failed and abort. */
#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__,        \
			        #cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* Splits data into at most max NUL-terminated fields at NUL bytes (the last field takes the
 * rest, so it may hold NULs: its length is in lens). Returns the number of fields; the copy
 * in *buf is freed by the caller. */
static inline size_t fuzz_fields(const uint8_t *data, size_t size, char **fields, size_t *lens,
                                 size_t max, char **buf)
{
	size_t n = 0, i, start = 0;

	*buf = malloc(size + 1);
	if (!*buf)
		abort();
	memcpy(*buf, data, size);
	(*buf)[size] = 0;
	for (i = 0; i <= size && n < max; i++) {
		if (i == size || (n + 1 < max && !data[i])) {
			fields[n] = *buf + start;
			lens[n] = i - start;
			n++;
			start = i + 1;
		}
	}
	return n;
}

#endif
