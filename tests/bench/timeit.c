/* timeit OUT CMD [ARG...]: runs CMD and writes "WALL USER SYS MAXRSS" to OUT (seconds, seconds,
 * seconds, KiB), the wall time taken from just before the process is made to just after it is
 * reaped, so no timer process of the shell's is counted in it. Exits with CMD's status. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	FILE *out;
	pid_t pid;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: timeit OUT CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (posix_spawnp(&pid, argv[2], NULL, NULL, argv + 2, environ)) {
		perror(argv[2]);
		return 127;
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("wait4");
		return 127;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 127;
	}
	fprintf(out, "%.6f %.6f %.6f %ld\n",
	        (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	        seconds(ru.ru_utime), seconds(ru.ru_stime), ru.ru_maxrss);
	fclose(out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
