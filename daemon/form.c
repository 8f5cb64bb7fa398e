/* Decoding the payload field of a form-encoded delivery. */
#include <stdlib.h>
#include <string.h>

#include "form.h"
#include "utf8.h"
#include "xmalloc.h"

/* "payload" with every byte escaped is 21 bytes: no longer name matches. */
#define FORM_MAX_NAME	21

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

/* Find and decode the first "payload" field of a form body. */
int
form_payload(const char *body, size_t len, char **out, size_t *outlen,
    char **cause)
{
	const char	*p, *end, *amp = NULL, *eq = NULL, *value;
	char		 name[FORM_MAX_NAME];
	char		*decoded;
	size_t		 namelen, valuelen;
	long		 n;
	int		 found = 0;

	if (body == NULL || len == 0) {
		xasprintf(cause, "form: no payload field");
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
		if (namelen > 0 && namelen <= FORM_MAX_NAME) {
			if ((n = form_decode(p, namelen, name)) == -1) {
				xasprintf(cause, "form: bad %%-escape in a "
				    "field name");
				return -1;
			}
			found = n == 7 && memcmp(name, "payload", 7) == 0;
		}
		if (found || amp == end)
			break;
		p = amp + 1;
	}
	if (!found) {
		xasprintf(cause, "form: no payload field");
		return -1;
	}

	value = eq < amp ? eq + 1 : amp;
	valuelen = amp - value;
	if (valuelen == 0) {
		xasprintf(cause, "form: empty payload field");
		return -1;
	}
	decoded = xmalloc(valuelen + 1);
	if ((n = form_decode(value, valuelen, decoded)) == -1) {
		free(decoded);
		xasprintf(cause, "form: bad %%-escape in the payload field");
		return -1;
	}
	decoded[n] = '\0';
	*out = decoded;
	*outlen = (size_t)n;
	return 0;
}
