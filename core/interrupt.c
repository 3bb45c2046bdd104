/* Registries shared by the signal handler and resource holders (see interrupt.h). */
#include "core/interrupt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

volatile sig_atomic_t hb_interrupted;

/* held and shielded by the meta ranges' threads too (rest/metaranges.c) */
static atomic_int holds, shields;
/* transfers run in more than one thread at a time (rest/metaranges.c's meta ranges) */
static atomic_int transfers;
static void (*exit_fn)(int sig);

static char files[HB_INTERRUPT_FILES][HB_INTERRUPT_PATH];
static volatile sig_atomic_t file_used[HB_INTERRUPT_FILES];
static volatile sig_atomic_t groups[HB_INTERRUPT_GROUPS];
/* each thread's own: a worker thread blocks and restores its own mask */
static _Thread_local sigset_t saved;

void hb_interrupt_hold(void)
{
	atomic_fetch_add(&holds, 1);
}

void hb_interrupt_release(void)
{
	int h = atomic_load(&holds);

	while (h > 0 && !atomic_compare_exchange_weak(&holds, &h, h - 1))
		;
	if (!atomic_load(&holds) && hb_interrupted && exit_fn)
		exit_fn(hb_interrupted);
}

int hb_interrupt_holds(void)
{
	return atomic_load(&holds);
}

void hb_interrupt_shield(int on)
{
	int s = atomic_load(&shields);

	if (on)
		atomic_fetch_add(&shields, 1);
	else
		while (s > 0 && !atomic_compare_exchange_weak(&shields, &s, s - 1))
			;
}

int hb_interrupt_stop(void)
{
	return hb_interrupted && !atomic_load(&shields);
}

void hb_interrupt_transfer(int on)
{
	atomic_fetch_add(&transfers, on ? 1 : -1);
}

int hb_interrupt_in_transfer(void)
{
	return atomic_load(&transfers) > 0;
}

void hb_interrupt_set_exit(void (*fn)(int sig))
{
	exit_fn = fn;
}

void hb_interrupt_block(int on)
{
	sigset_t s;

	if (on) {
		sigemptyset(&s);
		sigaddset(&s, SIGINT);
		sigaddset(&s, SIGTERM);
		sigaddset(&s, SIGPIPE);
		sigaddset(&s, SIGALRM); /* the --deadline timer */
		pthread_sigmask(SIG_BLOCK, &s, &saved);
	} else {
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	}
}

int hb_interrupt_add_file(const char *path)
{
	size_t n = strlen(path);
	int i;

	if (n >= HB_INTERRUPT_PATH)
		return -1;
	for (i = 0; i < HB_INTERRUPT_FILES; i++) {
		if (file_used[i])
			continue;
		memcpy(files[i], path, n + 1);
		/* The path is complete before the handler can see the slot in use. */
		atomic_signal_fence(memory_order_seq_cst);
		file_used[i] = 1;
		return 0;
	}
	return -1;
}

void hb_interrupt_remove_file(const char *path)
{
	int i;

	for (i = 0; i < HB_INTERRUPT_FILES; i++)
		if (file_used[i] && !strcmp(files[i], path))
			file_used[i] = 0;
}

int hb_interrupt_add_group(pid_t pgid)
{
	int i;

	for (i = 0; i < HB_INTERRUPT_GROUPS; i++) {
		if (!groups[i]) {
			groups[i] = (sig_atomic_t)pgid;
			return 0;
		}
	}
	return -1;
}

void hb_interrupt_remove_group(pid_t pgid)
{
	int i;

	for (i = 0; i < HB_INTERRUPT_GROUPS; i++)
		if (groups[i] == (sig_atomic_t)pgid)
			groups[i] = 0;
}

const char *hb_interrupt_file(int i)
{
	if (i < 0 || i >= HB_INTERRUPT_FILES || !file_used[i])
		return "";
	return files[i];
}

pid_t hb_interrupt_group(int i)
{
	if (i < 0 || i >= HB_INTERRUPT_GROUPS)
		return 0;
	return (pid_t)groups[i];
}

static char note[HB_INTERRUPT_NOTE];

void hb_interrupt_set_note(const char *text)
{
	size_t n = text ? strlen(text) : 0;

	if (n >= sizeof(note))
		n = sizeof(note) - 1;
	hb_interrupt_block(1);
	memcpy(note, text ? text : "", n);
	note[n] = 0;
	hb_interrupt_block(0);
}

const char *hb_interrupt_note(void)
{
	return note;
}
