/* hbtab advise's split specifications: the metadata row's recorded one read back into flags,
 * and a specification's N changed to the one recommended. */
#include "advise_spec.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The flags a recorded specification may hold, and where each goes. */
struct spec_flag {
	const char *flag;
	size_t off;
	int algo; /* takes N */
};

#define SF(f, m, a)                                                                                \
	{                                                                                          \
		f, offsetof(struct cli_splitspec, m), a                                            \
	}
static const struct spec_flag spec_flags[] = {
    SF("hex-splits", hex, 1),
    SF("decimal-splits", decimal, 1),
    SF("uniform-splits", uniform, 1),
    SF("range-splits", range, 1),
    SF("book-hex-splits", book_hex, 1),
    SF("partition-splits", partition, 1),
    SF("salt-splits", salt, 1),
    SF("sampled-splits", sampled, 1),
    SF("splits-file", splits_file, 0),
    SF("first", first, 0),
    SF("last", last, 0),
    SF("start", start, 0),
    SF("end", end, 0),
    SF("salt-width", salt_width, 0),
    SF("sample-file", sample_file, 0),
    SF("generator", generator, 0),
    SF("sample-size", sample_size, 0),
    SF("seed", seed, 0),
    SF("start-time", start_time, 0),
    SF("sample-table", sample_table, 0),
    SF("sample-rows", sample_rows, 0),
};

static const char **spec_field(struct cli_splitspec *s, size_t off)
{
	return (const char **)((char *)s + off);
}

/* The next word of a POSIX-shell-quoted flag string (single quotes only, as
 * cli_splitspec_describe writes it) into w; NULL at the end. */
static const char *next_word(const char *p, struct hb_buf *w)
{
	hb_buf_reset(w);
	while (*p == ' ')
		p++;
	if (!*p)
		return NULL;
	while (*p && *p != ' ') {
		if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');

			if (!q || hb_buf_add(w, p + 1, (size_t)(q - p - 1)))
				return NULL;
			p = q + 1;
		} else if (*p == '\\' && p[1]) {
			if (hb_buf_addc(w, p[1]))
				return NULL;
			p += 2;
		} else if (hb_buf_addc(w, *p++)) {
			return NULL;
		}
	}
	if (hb_buf_add(w, "", 0))
		return NULL;
	return p;
}

int cli_advise_parse_recorded(struct cli_splitspec *s, struct hb_buf *words, const char *text)
{
	struct hb_buf w = HB_BUF_INIT;
	size_t offs[64], n = 0, i, j;
	const char *p = text;

	hb_buf_reset(words);
	while (n < HB_ARRAY_LEN(offs) && (p = next_word(p, &w)) != NULL) {
		offs[n++] = words->len;
		if (hb_buf_add(words, w.data, w.len + 1))
			break;
	}
	hb_buf_release(&w);
	if (!n || n % 2 || n == HB_ARRAY_LEN(offs))
		return -1;
	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i += 2) {
		const char *f = words->data + offs[i], *v = words->data + offs[i + 1];

		for (j = 0; j < HB_ARRAY_LEN(spec_flags); j++)
			if (!strncmp(f, "--", 2) && !strcmp(f + 2, spec_flags[j].flag))
				break;
		if (j == HB_ARRAY_LEN(spec_flags))
			return -1;
		*spec_field(s, spec_flags[j].off) = v;
	}
	return 0;
}

const char **cli_advise_n_field(struct cli_splitspec *s)
{
	size_t j;

	for (j = 0; j < HB_ARRAY_LEN(spec_flags); j++)
		if (spec_flags[j].algo && *spec_field(s, spec_flags[j].off))
			return spec_field(s, spec_flags[j].off);
	return NULL;
}

int cli_advise_with_n(struct cli_splitspec *s, uint64_t n, char *num, size_t cap)
{
	const char **f = cli_advise_n_field(s);

	if (!f)
		return -1;
	snprintf(num, cap, "%llu", (unsigned long long)n);
	*f = num;
	s->regions_per_server = NULL;
	return 0;
}

int cli_advise_keys_at(struct hb_keys *out, const struct cli_splitspec *s, uint64_t n,
                       struct hb_error *err)
{
	struct cli_splitspec t = *s;
	char num[32];

	hb_keys_clear(out);
	if (cli_advise_with_n(&t, n, num, sizeof(num)))
		return hb_error_set(err, HB_EINVAL, "the split specification cannot take N");
	return cli_splitspec_compute(out, &t, err);
}

uint64_t cli_advise_expressible(const struct cli_splitspec *s, uint64_t want)
{
	struct hb_error err = {0};
	struct hb_keys k;
	uint64_t lo = 1, hi = want;

	hb_keys_init(&k);
	if (!cli_advise_keys_at(&k, s, want, &err))
		lo = want;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (cli_advise_keys_at(&k, s, mid, &err))
			hi = mid - 1;
		else
			lo = mid;
	}
	hb_keys_release(&k);
	return lo;
}
