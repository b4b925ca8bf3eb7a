/*
 * The words of an enumeration whose values are 0..n-1, in a table of n strings: the word
 * of a value, and the value of a word.
 */
#ifndef IDLEKIT_UTIL_NAMES_H
#define IDLEKIT_UTIL_NAMES_H

/* names[value], or unknown for a value outside 0..n-1. */
const char *ik__name_of(const char *const *names, int n, int value, const char *unknown);
/* The index of text in names, or -1. */
int ik__name_find(const char *const *names, int n, const char *text);

#endif
