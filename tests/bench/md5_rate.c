/* OpenSSL's one-shot MD5() over distinct 8-byte inputs: the hash rate that bounds
 * 'hbtab simulate --generator md5'. Usage: md5_rate COUNT; prints "keys_per_s N CPU_N": per
 * second of wall time and per second of this process's CPU time (steadier on a busy host). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10000000L, i;
	unsigned char in[8] = {0}, md[MD5_DIGEST_LENGTH];
	unsigned acc = 0;
	struct timespec a, b, ca, cb;
	double s, cs;

	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
	for (i = 0; i < n; i++) {
		in[0] = (unsigned char)i;
		in[1] = (unsigned char)(i >> 8);
		in[2] = (unsigned char)(i >> 16);
		in[3] = (unsigned char)(i >> 24);
		MD5(in, 8, md);
		acc += md[0];
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	cs = (double)(cb.tv_sec - ca.tv_sec) + (double)(cb.tv_nsec - ca.tv_nsec) / 1e9;
	printf("keys_per_s %.0f %.0f\n", (double)n / s, (double)n / cs);
	return acc == 0xFFFFFFFFu; /* keeps the loop from being optimised away */
}
