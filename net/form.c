/* Decoding one field of a form-encoded request body. */
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "utf8.h"
#include "xmalloc.h"

/*
 * A field name with every byte escaped takes three bytes a byte: no name
 * longer than that matches, and none is decoded.
 */
#define FORM_MAX_NAME	(3 * FORM_FIELD_MAX)

/*
 * Decode n bytes of src into dst (room for n bytes): '+' is a space, %XX
 * a byte. Returns the decoded length, or -1 on a bad escape.
 */
static long
form_decode(const char *src, size_t n, char *dst)
{
	size_t	i, o = 0;
	int	hi, lo;

	for (i = 0; i < n; i++) {
		if (src[i] == '+')
			dst[o++] = ' ';
		else if (src[i] == '%') {
			if (n - i < 3)
				return -1;
			if ((hi = hex_digit(src[i + 1])) < 0 ||
			    (lo = hex_digit(src[i + 2])) < 0)
				return -1;
			dst[o++] = (char)(hi << 4 | lo);
			i += 2;
		} else
			dst[o++] = src[i];
	}
	return (long)o;
}

/* Find and decode the first field of a form body with the name asked. */
int
form_field(const char *body, size_t len, const char *field, char **out,
    size_t *outlen, char **cause)
{
	const char	*p, *end, *amp = NULL, *eq = NULL, *value;
	char		 name[FORM_MAX_NAME];
	char		*decoded;
	size_t		 namelen, valuelen, fieldlen = strlen(field);
	long		 n;
	int		 found = 0;

	if (fieldlen == 0 || fieldlen > FORM_FIELD_MAX) {
		xasprintf(cause, "form: no field name of 1 to %d bytes",
		    FORM_FIELD_MAX);
		return -1;
	}
	if (body == NULL || len == 0) {
		xasprintf(cause, "form: no %s field", field);
		return -1;
	}
	p = body;
	end = body + len;
	for (;;) {
		if ((amp = memchr(p, '&', end - p)) == NULL)
			amp = end;
		if ((eq = memchr(p, '=', amp - p)) == NULL)
			eq = amp;
		namelen = eq - p;
		if (namelen > 0 && namelen <= 3 * fieldlen) {
			if ((n = form_decode(p, namelen, name)) == -1) {
				xasprintf(cause, "form: bad %%-escape in a "
				    "field name");
				return -1;
			}
			found = (size_t)n == fieldlen &&
			    memcmp(name, field, fieldlen) == 0;
		}
		if (found || amp == end)
			break;
		p = amp + 1;
	}
	if (!found) {
		xasprintf(cause, "form: no %s field", field);
		return -1;
	}

	value = eq < amp ? eq + 1 : amp;
	valuelen = amp - value;
	if (valuelen == 0) {
		xasprintf(cause, "form: empty %s field", field);
		return -1;
	}
	decoded = xmalloc(valuelen + 1);
	if ((n = form_decode(value, valuelen, decoded)) == -1) {
		free(decoded);
		xasprintf(cause, "form: bad %%-escape in the %s field", field);
		return -1;
	}
	decoded[n] = '\0';
	*out = decoded;
	*outlen = (size_t)n;
	return 0;
}
