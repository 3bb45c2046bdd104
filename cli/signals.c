/*
 * SIGINT, SIGTERM and SIGPIPE: hbtab stops without leaving anything behind and exits with
 * 130, 143 or 141; SIGALRM, the --deadline timer, stops it the same way with exit 4. Local
 * resources (temporary files, child process groups) are removed from the handler itself; while a
 * server-side resource is held (an open REST scanner) the handler only records the signal,
 * transfers stop, the scanner is deleted, and the last release of the hold ends the process here. A
 * second signal during that clean-up ends it at once.
 *
 * These are handlers, not SIG_IGN, so the hbase shell channel's children start with the
 * default dispositions (exec resets handled signals, not ignored ones). A closed stdout ends
 * hbtab with 141 whichever reports it first: SIGPIPE here, or EPIPE in the write path while a
 * scanner is being deleted (cli_finish_stdout, CLI_EXIT_OUTPUT). libcurl runs with
 * CURLOPT_NOSIGNAL, so it never swaps these handlers out during a transfer.
 */
#include "cli.h"
#include "exit.h"
#include "exitreport.h"
#include "progress.h"

#include "core/interrupt.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int exit_status(int sig)
{
	switch (sig) {
	case SIGINT:
		return CLI_EXIT_SIGINT;
	case SIGPIPE:
		return CLI_EXIT_SIGPIPE;
	case SIGALRM:
		return CLI_EXIT_SERVER;
	default:
		return CLI_EXIT_SIGTERM;
	}
}

/* Made when the timer is armed: the handler cannot format. */
static char deadline_msg[256];

static void say(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(2, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Everything here is async-signal-safe: kill, waitpid, nanosleep, unlink, write, _exit. */
static _Noreturn void finish(int sig)
{
	struct timespec tick = {0, 20000000};
	int i, k, left;

	for (i = 0; i < HB_INTERRUPT_GROUPS; i++)
		if (hb_interrupt_group(i) > 0)
			kill(-hb_interrupt_group(i), SIGTERM);
	/* Up to 2 s for the leaders to go; then whatever is left of each group is killed. */
	for (k = 0; k < 100; k++) {
		left = 0;
		for (i = 0; i < HB_INTERRUPT_GROUPS; i++) {
			pid_t g = hb_interrupt_group(i);

			if (g > 0 && waitpid(g, NULL, WNOHANG) == 0)
				left = 1;
		}
		if (!left)
			break;
		nanosleep(&tick, NULL);
	}
	for (i = 0; i < HB_INTERRUPT_GROUPS; i++) {
		pid_t g = hb_interrupt_group(i);

		if (g > 0) {
			kill(-g, SIGKILL);
			waitpid(g, NULL, WNOHANG);
		}
	}
	for (i = 0; i < HB_INTERRUPT_FILES; i++)
		if (*hb_interrupt_file(i))
			unlink(hb_interrupt_file(i));
	/* The progress line goes before the message, as before every other one (hbtab(1)). */
	cli_progress_erase_now();
	/* A closed pipe is the reader's choice (| head): no message, as other tools do. */
	if (sig == SIGALRM)
		say(deadline_msg);
	else if (sig == SIGINT)
		say("hbtab: interrupted (SIGINT)\n");
	else if (sig == SIGTERM)
		say("hbtab: terminated (SIGTERM)\n");
	/* what the run held that a rerun puts back (a truncate's metadata row), made beforehand */
	say(hb_interrupt_note());
	/* a failed run for its readers: the --prom-file report, the -o json error object */
	cli_exit_report_write(sig);
	_exit(exit_status(sig));
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int again = hb_interrupted != 0;

	(void)uc;
	/* A SIGPIPE the kernel raised for hbtab's own write while a transfer runs comes from a
	 * socket, not from stdout (transfers never write stdout): the transfer fails with EPIPE
	 * and reports a network error. One sent by another process still stops hbtab. */
	if (sig == SIGPIPE && hb_interrupt_in_transfer() && si && si->si_code == SI_USER &&
	    si->si_pid == getpid())
		return;

	/* A closed pipe raises SIGPIPE at every write: the writes of the clean-up itself (a -v
	 * trace of the scanner DELETE to a closed stderr) must not cut it short. Only a second
	 * SIGINT or SIGTERM, someone's decision, ends it at once. */
	if (again && sig == SIGPIPE)
		return;
	if (!again)
		hb_interrupted = sig;
	if (again || !hb_interrupt_holds())
		finish(hb_interrupted);
	/* A scanner is open: the transfer in progress stops, the scanner is deleted, then
	 * hb_interrupt_release calls finish. */
}

static void install(int sig)
{
	struct sigaction sa, old;

	/* A signal ignored by whoever started hbtab (nohup, a background job) stays ignored. */
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGPIPE);
	sigaddset(&sa.sa_mask, SIGALRM);
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	sigaction(sig, &sa, NULL);
}

void cli_signals_install(void)
{
	hb_interrupt_set_exit(finish);
	install(SIGINT);
	install(SIGTERM);
	install(SIGPIPE);
}

int cli_deadline_arm(double seconds)
{
	struct itimerval it;

	if (!(seconds > 0))
		return 0;
	snprintf(deadline_msg, sizeof(deadline_msg),
	         "hbtab: deadline of %g s passed (--deadline): stopped; open scanners deleted, "
	         "temporary files removed, locks released\n",
	         seconds);
	cli_exit_report_deadline(deadline_msg);
	install(SIGALRM);
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
	if (!it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	return setitimer(ITIMER_REAL, &it, NULL);
}
