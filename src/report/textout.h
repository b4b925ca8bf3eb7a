/*
 * idlekit: text in the output formats: a string as a JSON string, a string as a CSV field.
 * One writer each, used by every report (sim, compare, replay, sweeps, the host commands),
 * so that every output quotes a name the same way.
 */
#ifndef IDLEKIT_TEXTOUT_H
#define IDLEKIT_TEXTOUT_H

#include <stddef.h>
#include <stdio.h>

/*
 * s (at most maxlen bytes, stopping at NUL; SIZE_MAX for a whole string) as a JSON string:
 * quotes, backslashes and control characters escaped; '<', '>', '&' and U+2028/2029 as
 * \uXXXX so the JSON can sit inside an HTML page; well-formed UTF-8 copied, any ill-formed
 * byte replaced by U+FFFD.
 */
void ik__json_string(FILE *out, const char *s, size_t maxlen); /* s NULL: "" */

/* s (at most maxlen bytes, stopping at NUL) as a CSV field, quoted as RFC 4180 says when it
   holds a comma, a double quote, CR or LF (inner quotes doubled). */
void ik__csv_text(FILE *out, const char *s, size_t maxlen); /* s NULL: an empty field */

#endif
