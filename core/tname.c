/* Table, namespace and column-family name validation following HBase 2.x's TableName. */
#include "tname.h"

#include <stdlib.h>
#include <string.h>

/* Decodes one UTF-8 sequence at s[*i]; returns the code point or -1 when malformed. */
static long utf8_next(const unsigned char *s, size_t n, size_t *i)
{
	unsigned char c = s[*i];
	long cp, min;
	size_t need, j;

	if (c < 0x80) {
		(*i)++;
		return c;
	} else if ((c & 0xE0) == 0xC0) {
		cp = c & 0x1F;
		need = 1;
		min = 0x80;
	} else if ((c & 0xF0) == 0xE0) {
		cp = c & 0x0F;
		need = 2;
		min = 0x800;
	} else if ((c & 0xF8) == 0xF0) {
		cp = c & 0x07;
		need = 3;
		min = 0x10000;
	} else {
		return -1;
	}
	if (*i + need >= n)
		return -1;
	for (j = 1; j <= need; j++) {
		if ((s[*i + j] & 0xC0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[*i + j] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	*i += need + 1;
	return cp;
}

/*
 * Java's Character.isAlphabetic || isDigit, approximated: ASCII exactly; above ASCII every
 * code point except controls, Latin-1 punctuation and symbols, and the blocks that hold
 * only punctuation, symbols, spaces or private-use characters.
 */
static int is_letter_or_digit(long cp)
{
	static const long not_letters[][2] = {
	    {0x80, 0xA9},     {0xAB, 0xB4},       {0xB6, 0xB9},        {0xBB, 0xBF},
	    {0xD7, 0xD7},     {0xF7, 0xF7},       {0x2000, 0x206F},    {0x20A0, 0x20CF},
	    {0x2100, 0x2101}, {0x2190, 0x23FF},   {0x2400, 0x245F},    {0x2500, 0x27BF},
	    {0x27C0, 0x2BFF}, {0x2E00, 0x2E7F},   {0x3000, 0x3004},    {0x3008, 0x3020},
	    {0xD800, 0xF8FF}, {0xFE10, 0xFE1F},   {0xFE30, 0xFE6F},    {0xFEFF, 0xFEFF},
	    {0xFF00, 0xFF0F}, {0xFF1A, 0xFF20},   {0xFF3B, 0xFF40},    {0xFF5B, 0xFF65},
	    {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF}, {0xE0000, 0x10FFFF},
	};
	size_t k;

	if (cp < 0x80)
		return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
		       (cp >= 'A' && cp <= 'Z');
	for (k = 0; k < HB_ARRAY_LEN(not_letters); k++)
		if (cp >= not_letters[k][0] && cp <= not_letters[k][1])
			return 0;
	return 1;
}

/* Checks one part; qual = 1 for the qualifier rules. full is the whole name as shown in
 * messages (between single quotes, so a quote in it is \x27). */
static int check_part(const char *what, const char *name, const char *full, const char *s, size_t n,
                      int qual, struct hb_error *err)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	if (n == 0)
		return hb_error_set(err, HB_EINVAL, "invalid table name '%s': empty %s", full,
		                    what);
	if (qual && (s[0] == '.' || s[0] == '-'))
		return hb_error_set(err, HB_EINVAL,
		                    "invalid table name '%s': the %s cannot start with '%c'", full,
		                    what, s[0]);
	while (i < n) {
		size_t at = i;
		long cp = utf8_next(u, n, &i);

		if (cp < 0)
			return hb_error_set(err, HB_EINVAL,
			                    "invalid table name '%s': not UTF-8 at byte %zu", full,
			                    (size_t)(s - name) + at);
		if (cp == '_' || is_letter_or_digit(cp))
			continue;
		if (qual && (cp == '-' || cp == '.'))
			continue;
		if (cp >= 0x20 && cp < 0x7F)
			return hb_error_set(
			    err, HB_EINVAL,
			    "invalid table name '%s': character %c%c%c is not allowed "
			    "in the %s (letters, digits, '_'%s)",
			    full, cp == '\'' ? '"' : '\'', (int)cp, cp == '\'' ? '"' : '\'', what,
			    qual ? ", '-', '.'" : "");
		return hb_error_set(err, HB_EINVAL,
		                    "invalid table name '%s': character U+%04lX is not allowed in "
		                    "the %s",
		                    full, (unsigned long)cp, what);
	}
	if (n == 9 && !memcmp(s, "zookeeper", 9))
		return hb_error_set(err, HB_EINVAL,
		                    "invalid table name '%s': 'zookeeper' is a reserved %s", full,
		                    what);
	return 0;
}

/* Bytes shown as \xHH in a name between single quotes: the quote, and controls (a newline
 * would split the message's line). */
static int escaped(unsigned char c)
{
	return c == '\'' || c < 0x20 || c == 0x7F;
}

/* name as shown between single quotes: a quote or a control byte in it as \xHH. NULL
 * without memory. */
static char *shown_name(const char *name)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(name), q = 0, i, o = 0;
	char *out;

	for (i = 0; i < n; i++)
		q += escaped((unsigned char)name[i]);
	out = malloc(n + 3 * q + 1);
	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (escaped(c)) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = name[i];
		}
	}
	out[o] = '\0';
	return out;
}

static int parse(struct hb_tname *out, const char *name, const char *shown, struct hb_error *err)
{
	struct hb_tname t;
	const char *colon;
	int rc;

	if (!name || !*name)
		return hb_error_set(err, HB_EINVAL, "invalid table name '': empty");
	memset(&t, 0, sizeof(t));
	colon = strchr(name, ':');
	if (colon) {
		t.ns = name;
		t.ns_len = (size_t)(colon - name);
		t.qual = colon + 1;
		t.has_ns = 1;
		rc = check_part("namespace", name, shown, t.ns, t.ns_len, 0, err);
		if (rc)
			return rc;
	} else {
		t.ns = "default";
		t.ns_len = 7;
		t.qual = name;
	}
	t.qual_len = strlen(t.qual);
	rc = check_part("qualifier", name, shown, t.qual, t.qual_len, 1, err);
	if (rc)
		return rc;
	if ((t.qual_len == 6 && !memcmp(t.qual, "-ROOT-", 6)) ||
	    (t.qual_len == 6 && !memcmp(t.qual, ".META.", 6)))
		return hb_error_set(err, HB_EINVAL, "invalid table name '%s': reserved", shown);
	t.too_long = t.ns_len > HB_TNAME_WARN_BYTES || t.qual_len > HB_TNAME_WARN_BYTES;
	if (out)
		*out = t;
	return 0;
}

int hb_tname_parse(struct hb_tname *out, const char *name, struct hb_error *err)
{
	char *shown;
	size_t i;
	int rc;

	for (i = 0; name && name[i] && !escaped((unsigned char)name[i]); i++)
		;
	if (!name || !name[i])
		return parse(out, name, name, err);
	shown = shown_name(name);
	if (!shown)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	rc = parse(out, name, shown, err);
	free(shown);
	return rc;
}

int hb_tname_check_create(struct hb_tname *out, const char *name, struct hb_error *err)
{
	struct hb_tname t;
	int rc = hb_tname_parse(&t, name, err);

	if (rc)
		return rc;
	if (t.ns_len == 5 && !memcmp(t.ns, "hbase", 5))
		return hb_error_set(err, HB_EINVAL,
		                    "refusing to create '%s': the 'hbase' namespace holds system "
		                    "tables",
		                    name);
	if (out)
		*out = t;
	return 0;
}

int hb_family_check(const char *name, struct hb_error *err)
{
	const unsigned char *u = (const unsigned char *)name;
	size_t i;

	if (!name || !*name)
		return hb_error_set(err, HB_EINVAL, "invalid family name '': empty");
	if (name[0] == '.')
		return hb_error_set(err, HB_EINVAL,
		                    "invalid family name '%s': cannot start with '.'", name);
	for (i = 0; u[i]; i++) {
		if (u[i] < 0x20 || u[i] == 0x7F)
			return hb_error_set(err, HB_EINVAL,
			                    "invalid family name: control character \\x%02X at "
			                    "byte %zu",
			                    u[i], i);
		if (u[i] == ':' || u[i] == '\\' || u[i] == '/')
			return hb_error_set(
			    err, HB_EINVAL,
			    "invalid family name '%s': character '%c' is not allowed", name, u[i]);
	}
	if (!strcmp(name, "recovered.edits"))
		return hb_error_set(err, HB_EINVAL, "invalid family name '%s': reserved by HBase",
		                    name);
	return 0;
}

const char *hb_tname_bare(const char *name)
{
	return strncmp(name, "default:", 8) ? name : name + 8;
}

const char *hb_tname_bare_n(const char *name, size_t *n)
{
	if (*n > 8 && !memcmp(name, "default:", 8)) {
		*n -= 8;
		return name + 8;
	}
	return name;
}
