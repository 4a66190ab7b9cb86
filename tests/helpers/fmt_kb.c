/* fmt_kb KIB...: prints each size as memtop shows it (src/base/text.c's fmt_kb), one a line, for
 * tests that compare the screen with /proc. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "text.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fmt_kb KIB...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		char *end, buf[32];
		errno = 0;
		unsigned long long kb = strtoull(argv[i], &end, 10);
		if (errno || end == argv[i] || *end || argv[i][0] == '-') {
			fprintf(stderr, "fmt_kb: not a size in KiB: '%s'\n", argv[i]);
			return 2;
		}
		fmt_kb(kb, buf, sizeof(buf));
		puts(buf);
	}
	return 0;
}
