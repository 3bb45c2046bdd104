/* Key-per-line text (split files, sample files): toStringBinary lines into a key list. */
#ifndef HB_SPLITSFILE_H
#define HB_SPLITSFILE_H

#include "hb.h"
#include "key.h"

/* Reject lines whose keys are not strictly increasing (split files). */
#define HB_SPLITSFILE_SORTED 1
/* The keys are split keys: at most HB_SPLIT_MAX_REGIONS - 1 of them, the region cap every
 * split source shares. */
#define HB_SPLITSFILE_SPLITS 2

/*
 * Parses text, one key per line in toStringBinary form (toBytesBinary applied to each line),
 * appending the keys to out. '\n' ends a line and a '\r' before it is dropped (CRLF files are
 * accepted); the last line may lack its '\n'. Spaces are kept. Errors name "name:LINE": an
 * empty line, invalid UTF-8, a key longer than 32767 bytes, with HB_SPLITSFILE_SORTED a key
 * not greater than the one before, with HB_SPLITSFILE_SPLITS one key more than the region cap
 * allows, and a text with no keys. HB_EINVAL, HB_ENOMEM.
 */
int hb_splitsfile_parse(struct hb_keys *out, const char *text, size_t len, const char *name,
                        int flags, struct hb_error *err);

#endif
