/* Monotonic time and sleeping: the one place hbtab reads a clock for durations and waits. */
#ifndef HB_CORE_CLOCK_H
#define HB_CORE_CLOCK_H

/* Seconds on the monotonic clock (an arbitrary origin; only differences mean anything). */
double hb_now(void);

/* Sleeps s seconds (nothing for s <= 0), resuming after signals that interrupt it unless one
 * asks hbtab to stop (core/interrupt.h): then it returns early. */
void hb_sleep(double s);

#endif
