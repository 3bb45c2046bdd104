/*
 * What the program's signal handler shares with the code that holds resources a signal must
 * not leave behind. No I/O here: the handler (cli/signals.c) does the killing and unlinking.
 *
 * Two kinds of resources:
 *  - local ones the handler can remove by itself with async-signal-safe calls: temporary
 *    files (unlink) and child process groups (kill, waitpid). They are registered here.
 *  - server-side ones that need a request to go away (REST scanners). Code holding one
 *    takes a hold; while a hold is taken the handler only records the signal, transfers stop
 *    (see hb_interrupt_stop), the holder cleans up, and the last release calls the exit hook.
 */
#ifndef HB_CORE_INTERRUPT_H
#define HB_CORE_INTERRUPT_H

#include <signal.h>
#include <sys/types.h>

/* The signal that asks the program to stop (SIGINT, SIGTERM, SIGPIPE), 0 while none came. */
extern volatile sig_atomic_t hb_interrupted;

/* Room in the registries (hbtab holds at most two temp files and one child at a time). */
#define HB_INTERRUPT_FILES  8
#define HB_INTERRUPT_GROUPS 4
#define HB_INTERRUPT_PATH   4096

/* Takes / drops a hold on a server-side resource. The release that drops the last hold
 * while a signal is pending calls the exit hook (which does not return). */
void hb_interrupt_hold(void);
void hb_interrupt_release(void);
int hb_interrupt_holds(void);

/* Marks requests that must run to the end despite a pending signal (creating a scanner, so
 * its id is known; deleting it). Nested calls count. */
void hb_interrupt_shield(int on);

/* 1 when a transfer should stop now: a signal is pending and no shield is up. */
int hb_interrupt_stop(void);

/* Marks a libcurl transfer in progress (on = 1 before curl_easy_perform, 0 after), so the
 * handler can tell a socket's SIGPIPE from a closed stdout's. */
void hb_interrupt_transfer(int on);
int hb_interrupt_in_transfer(void);

/* The exit hook: cleans up local resources and ends the process with the signal's status. */
void hb_interrupt_set_exit(void (*fn)(int sig));

/* Registers / forgets a temporary file (path copied). Returns 0, or -1 when it does not fit
 * (then the file is not protected). Call with the signals blocked (hb_interrupt_block). */
int hb_interrupt_add_file(const char *path);
void hb_interrupt_remove_file(const char *path);
/* Registers / forgets a child process group (its leader's pid). Returns 0 or -1. */
int hb_interrupt_add_group(pid_t pgid);
void hb_interrupt_remove_group(pid_t pgid);

/* Blocks (on = 1) or restores (on = 0) SIGINT, SIGTERM, SIGPIPE and SIGALRM around a registration,
 * so a resource never exists unregistered. Not nested; the calling thread's mask alone. */
void hb_interrupt_block(int on);

/* A message the exit hook writes after its own: what the run held that only a rerun or the
 * operator can now put back (the metadata row a truncate has taken out of the table). The
 * text is copied with the signals blocked (not nested in hb_interrupt_block); NULL clears it;
 * it is cut at HB_INTERRUPT_NOTE - 1 bytes. hb_interrupt_note() is "" when none is set. */
#define HB_INTERRUPT_NOTE 8192
void hb_interrupt_set_note(const char *text);
const char *hb_interrupt_note(void);

/* For the handler: the registered entries (empty slots are "" / 0). */
const char *hb_interrupt_file(int i);
pid_t hb_interrupt_group(int i);

#endif
