/* core/cryptoload.c built to open a library that is not there: every call fails as libcrypto
 * does when it cannot do the work, and the loader says the library is not loaded and which. */
#include "core/cryptoload.h"
#include "test.h"

#include <openssl/evp.h>
#include <string.h>

static void test_cryptoload_absent__every_call_fails_and_says_which_library(void)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	CHECK_EQ_INT(hb_libcrypto_ready(), 0);
	CHECK_EQ_STR(hb_libcrypto_name(), "libhbtab-absent-crypto.so.0");
	CHECK(EVP_md5() == NULL);
	CHECK_EQ_INT(EVP_Digest("abc", 3, md, &n, EVP_md5(), NULL), 0);
	CHECK_EQ_INT((int)n, 0);
	/* asked again, the answer is the same */
	CHECK_EQ_INT(hb_libcrypto_ready(), 0);
}

int main(void)
{
	RUN(test_cryptoload_absent__every_call_fails_and_says_which_library);
	return TEST_DONE();
}
