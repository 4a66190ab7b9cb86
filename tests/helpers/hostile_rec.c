/* hostile_rec DIR: writes the hostile recordings of tests/unit/rec_hostile.h into DIR, one
 * file each, named after them (DIR/nocmd.rec ...), for the command-line tests and the
 * recording fuzzer's seeds. */
#include <stdio.h>
#include <stdlib.h>

#include "rec_hostile.h"

int main(int argc, char **argv)
{
	struct rbuf b = {0};
	char path[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: hostile_rec DIR\n");
		return 2;
	}
	for (int h = 0; h < RH_COUNT; h++) {
		rec_hostile((enum rec_hostile)h, &b);
		snprintf(path, sizeof(path), "%s/%s.rec", argv[1], rec_hostile_names[h]);
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f)) {
			perror(path);
			return 1;
		}
	}
	free(b.p);
	return 0;
}
