/* Text in the output formats (report/textout.h): one JSON string writer, one CSV field writer. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "report/textout.h"

void ik__json_string(FILE *out, const char *s, size_t maxlen)
{
	if (!s) /* no value: an empty string */
		s = "";
	size_t n = strnlen(s, maxlen);
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', out);
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		switch (c) {
		case '"':
			fputs("\\\"", out);
			i++;
			continue;
		case '\\':
			fputs("\\\\", out);
			i++;
			continue;
		case '\b':
			fputs("\\b", out);
			i++;
			continue;
		case '\f':
			fputs("\\f", out);
			i++;
			continue;
		case '\n':
			fputs("\\n", out);
			i++;
			continue;
		case '\r':
			fputs("\\r", out);
			i++;
			continue;
		case '\t':
			fputs("\\t", out);
			i++;
			continue;
		case '<': /* no "</script>" or "<!--" when the JSON sits inside HTML */
		case '>':
		case '&':
		case 0x7f:
			fprintf(out, "\\u%04x", c);
			i++;
			continue;
		}
		if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
			i++;
			continue;
		}
		if (c < 0x80) {
			fputc((int)c, out);
			i++;
			continue;
		}

		/* UTF-8: copy a well-formed sequence, replace any ill-formed byte with U+FFFD */
		size_t seq = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
		uint32_t cp = seq == 4 ? c & 0x07 : seq == 3 ? c & 0x0f : c & 0x1f;
		bool ok = seq != 0 && c < 0xf5 && i + seq <= n;
		for (size_t k = 1; ok && k < seq; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				ok = false;
			else
				cp = (cp << 6) | (p[i + k] & 0x3f);
		}
		if (ok) {
			static const uint32_t smallest[5] = {0, 0, 0x80, 0x800, 0x10000};
			ok = cp >= smallest[seq] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
		}
		if (!ok) {
			fputs("\\ufffd", out);
			i++;
			continue;
		}
		if (cp == 0x2028 || cp == 0x2029) /* line separators JavaScript rejects in strings */
			fprintf(out, "\\u%04x", (unsigned)cp);
		else
			fwrite(p + i, 1, seq, out);
		i += seq;
	}
	fputc('"', out);
}

void ik__csv_text(FILE *out, const char *s, size_t maxlen)
{
	if (!s) /* no value: an empty field */
		return;
	size_t n = strnlen(s, maxlen);
	bool needs_quotes = false;
	for (size_t i = 0; i < n; i++)
		needs_quotes |= s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!needs_quotes) {
		fwrite(s, 1, n, out);
		return;
	}
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}
