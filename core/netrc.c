/* Finding a login and password for a host in a ~/.netrc file, read as libcurl reads it. */
#include "netrc.h"

#include <string.h>
#include <strings.h>

/* The password's copy is cleared before its memory is given back. */
static void wipe(struct hb_buf *b)
{
	volatile char *p = b->data;
	size_t i;

	for (i = 0; p && i < b->cap; i++)
		p[i] = 0;
}

struct lexer {
	const char *p, *end;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The next token into tok (unquoted); 0 at the end, -1 when out of memory. */
static int next_token(struct lexer *lx, struct hb_buf *tok)
{
	hb_buf_reset(tok);
	while (lx->p < lx->end && is_space(*lx->p))
		lx->p++;
	if (lx->p >= lx->end)
		return 0;
	if (*lx->p == '"') {
		lx->p++;
		while (lx->p < lx->end && *lx->p != '"') {
			char c = *lx->p++;

			if (c == '\\' && lx->p < lx->end) {
				c = *lx->p++;
				c = c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
			}
			if (hb_buf_add(tok, &c, 1))
				return -1;
		}
		if (lx->p < lx->end)
			lx->p++; /* the closing quote */
	} else {
		const char *s = lx->p;

		while (lx->p < lx->end && !is_space(*lx->p))
			lx->p++;
		if (hb_buf_add(tok, s, (size_t)(lx->p - s)))
			return -1;
	}
	return 1;
}

/* After "macdef NAME": the macro's lines up to an empty line are not tokens. */
static void skip_macro(struct lexer *lx)
{
	while (lx->p < lx->end && *lx->p != '\n')
		lx->p++;
	while (lx->p < lx->end) {
		const char *nl = memchr(lx->p + 1, '\n', (size_t)(lx->end - lx->p - 1));

		if (!nl || nl == lx->p + 1 || (nl == lx->p + 2 && lx->p[1] == '\r')) {
			lx->p = nl ? nl + 1 : lx->end;
			return;
		}
		lx->p = nl;
	}
}

int hb_netrc_lookup(const char *text, size_t len, const char *host, const char *login,
                    struct hb_buf *found_login, struct hb_buf *password)
{
	struct lexer lx = {text, text + len};
	struct hb_buf tok = HB_BUF_INIT, user = HB_BUF_INIT, pass = HB_BUF_INIT;
	int in_entry = 0, matches = 0, have_user = 0, have_pass = 0, rc = 0, t;

	for (;;) {
		int opens;

		t = next_token(&lx, &tok);
		opens = t > 0 && (!strcmp(hb_buf_str(&tok), "machine") ||
		                  !strcmp(hb_buf_str(&tok), "default"));
		if (t <= 0 || opens) {
			/* the entry read so far is complete: is it the one? */
			if (in_entry && matches && have_pass &&
			    (!login || (have_user && !strcmp(hb_buf_str(&user), login)))) {
				rc = 1;
				break;
			}
			if (t <= 0) {
				rc = t;
				break;
			}
			in_entry = 1;
			have_user = have_pass = 0;
			if (!strcmp(hb_buf_str(&tok), "default")) {
				matches = 1;
			} else {
				t = next_token(&lx, &tok);
				if (t <= 0) {
					rc = t;
					break;
				}
				matches = !strcasecmp(hb_buf_str(&tok), host);
			}
			continue;
		}
		if (!strcmp(hb_buf_str(&tok), "macdef")) {
			skip_macro(&lx);
			continue;
		}
		if (!strcmp(hb_buf_str(&tok), "login") || !strcmp(hb_buf_str(&tok), "password") ||
		    !strcmp(hb_buf_str(&tok), "account")) {
			struct hb_buf *dst = hb_buf_str(&tok)[0] == 'l'   ? &user
			                     : hb_buf_str(&tok)[0] == 'p' ? &pass
			                                                  : NULL;

			t = next_token(&lx, dst ? dst : &tok);
			if (t < 0) {
				rc = -1;
				break;
			}
			if (dst == &user)
				have_user = t > 0;
			else if (dst == &pass)
				have_pass = t > 0;
		}
	}
	if (rc == 1) {
		hb_buf_reset(password);
		if (hb_buf_add(password, hb_buf_str(&pass), pass.len) || hb_buf_adds(password, ""))
			rc = -1;
		if (rc == 1 && found_login) {
			hb_buf_reset(found_login);
			if (hb_buf_add(found_login, hb_buf_str(&user), have_user ? user.len : 0) ||
			    hb_buf_adds(found_login, ""))
				rc = -1;
		}
	}
	wipe(&pass);
	hb_buf_release(&tok);
	hb_buf_release(&user);
	hb_buf_release(&pass);
	return rc;
}
