/* Growable arrays: one rule for every "pointer, count, capacity" triple in hbtab. */
#ifndef HB_CORE_VEC_H
#define HB_CORE_VEC_H

#include <stddef.h>

/*
 * Makes the array v (a pointer variable) hold at least need elements: when need exceeds cap
 * the capacity doubles, starting at min, and v and cap are updated. 0, or HB_ENOMEM with v
 * and cap unchanged (also when the size would overflow).
 */
#define HB_VEC_GROW(v, cap, need, min) hb_vec_grow(&(v), &(cap), (need), sizeof(*(v)), (min))

int hb_vec_grow(void *pv, size_t *cap, size_t need, size_t elem, size_t min);

#endif
