/*
 * application/x-www-form-urlencoded deliveries: GitHub puts the JSON in
 * the "payload" field.
 */
#ifndef HOOKCAST_FORM_H
#define HOOKCAST_FORM_H

#include <stddef.h>

/*
 * Find the first "payload" field of a form body and decode it ('+' is a
 * space, %XX a byte). On success *out is a new NUL-terminated string (it
 * may hold NUL bytes; *outlen is its length) and 0 is returned. A missing
 * or empty payload or a bad %-escape gives -1 and a new *cause.
 */
int	 form_payload(const char *body, size_t len, char **out,
	    size_t *outlen, char **cause);

#endif
