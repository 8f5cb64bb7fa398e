/* Sizes with units. */
#include <stdio.h>

#include "sizefmt.h"

char *
sizefmt(char *s, size_t len, long long bytes)
{
	static const struct {
		long long	 mult;
		char		 unit;
	} units[] = {
		{ 1024LL * 1024 * 1024, 'G' },
		{ 1024LL * 1024, 'M' },
		{ 1024LL, 'K' },
	};
	size_t	i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (bytes != 0 && bytes % units[i].mult == 0) {
			snprintf(s, len, "%lld%c", bytes / units[i].mult,
			    units[i].unit);
			return s;
		}
	}
	snprintf(s, len, "%lld byte%s", bytes, bytes == 1 ? "" : "s");
	return s;
}
