/* libcrypto opened on its first use (core/cryptoload.c). */
#ifndef HB_CRYPTOLOAD_H
#define HB_CRYPTOLOAD_H

/* Whether libcrypto is loaded, loading it the first time; thread-safe. */
int hb_libcrypto_ready(void);

/* The library's file name, for messages. */
const char *hb_libcrypto_name(void);

#endif
