/*
 * application/x-www-form-urlencoded request bodies: one field's value
 * found and decoded.
 */
#ifndef HOOKCAST_FORM_H
#define HOOKCAST_FORM_H

#include <stddef.h>

/* Longest field name form_field looks for. */
#define FORM_FIELD_MAX	32

/*
 * Find the first field named field (at most FORM_FIELD_MAX bytes; names
 * are compared once decoded) of a form body and decode its value ('+' is
 * a space, %XX a byte). On success *out is a new NUL-terminated string
 * (it may hold NUL bytes; *outlen is its length) and 0 is returned. A
 * missing or empty field or a bad %-escape gives -1 and a new *cause.
 */
int	 form_field(const char *body, size_t len, const char *field,
	    char **out, size_t *outlen, char **cause);

#endif
